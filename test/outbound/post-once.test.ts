// One POST (docs/protocol.md §16.6): to the pinned address with the name as Host, no redirect followed, timeouts, and
// at most maxReplyBytes of the reply.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { postOnce } from '../../src/outbound/post-once.ts';

async function listen(t: TestContext, handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => { server.closeAllConnections(); server.close(); });
  return (server.address() as AddressInfo).port;
}

const pinned = (port: number, path = '/in') => ({ url: new URL(`http://hooks.test:${port}${path}`), address: '127.0.0.1', family: 4 as const });

test('the POST goes to the pinned address with the name as Host; the reply comes back', async (t) => {
  let seen: { host?: string; body?: string; type?: string } = {};
  const port = await listen(t, (req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen = { host: req.headers.host, body, type: req.headers['content-type'] };
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"hi"}');
    });
  });
  const reply = await postOnce(pinned(port), { 'content-type': 'application/json' }, Buffer.from('{"a":1}'));
  assert.deepEqual(seen, { host: `hooks.test:${port}`, body: '{"a":1}', type: 'application/json' });
  assert.equal(reply.status, 200);
  assert.equal(reply.error, null);
  assert.equal(reply.body.toString(), '{"text":"hi"}');
  assert.ok(reply.durationMs >= 0);
});

test('a redirect is a failure, not followed', async (t) => {
  let hits = 0;
  const port = await listen(t, (_req, res) => { hits += 1; res.writeHead(302, { location: '/elsewhere' }).end(); });
  const reply = await postOnce(pinned(port), {}, Buffer.alloc(0));
  assert.equal(reply.status, 302);
  assert.equal(reply.error, 'redirect (302) not followed');
  assert.equal(hits, 1);
});

test('a reply slower than the whole timeout is a failure; a long body is cut at maxReplyBytes', async (t) => {
  const slow = await listen(t, () => { /* never answers */ });
  const late = await postOnce(pinned(slow), {}, Buffer.alloc(0), { totalTimeoutMs: 200 });
  assert.deepEqual([late.status, late.error], [0, 'no whole reply within 200 ms']);
  const big = await listen(t, (_req, res) => res.end(Buffer.alloc(100_000, 97)));
  const cut = await postOnce(pinned(big), {}, Buffer.alloc(0), { maxReplyBytes: 1000 });
  assert.equal(cut.body.length, 1000);
  assert.equal(cut.status, 200);
});

test('nothing listening: the connection error, status 0', async () => {
  const reply = await postOnce(pinned(1), {}, Buffer.alloc(0));
  assert.equal(reply.status, 0);
  assert.equal(reply.error, 'ECONNREFUSED');
});

test('with a keep-alive agent, POSTs beyond its sockets wait and reuse them; a reused connection adds no listener', async (t) => {
  const { KeepAliveAgents, SOCKETS_PER_ORIGIN } = await import('../../src/outbound/keep-alive-agents.ts');
  const peers = new Set<string>();
  const port = await listen(t, (req, res) => {
    peers.add(`${req.socket.remotePort}`);
    req.resume();
    req.on('end', () => res.writeHead(201).end());
  });
  const agents = new KeepAliveAgents();
  t.after(() => agents.destroy());
  const target = pinned(port);
  const warnings: Error[] = [];
  const onWarning = (warning: Error): number => warnings.push(warning);
  process.on('warning', onWarning);
  t.after(() => process.off('warning', onWarning));
  const replies = await Promise.all(Array.from({ length: SOCKETS_PER_ORIGIN * 12 }, () => postOnce(target, {}, Buffer.from('x'), {}, agents.agentFor(target))));
  assert.deepEqual(new Set(replies.map((reply) => `${reply.status} ${reply.error}`)), new Set(['201 null']));
  assert.ok(peers.size <= SOCKETS_PER_ORIGIN, `${peers.size} connections`);
  assert.equal(agents.agentFor(target), agents.agentFor(pinned(port, '/other')), 'one agent per origin and address');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(warnings.map((warning) => warning.name), []);
});
