// File descriptors as a planned budget (docs/operations.md, File descriptors): the limit read at start, --max-streams
// sized under it with a warning when a configured value does not fit, and 503 with Retry-After past it, never a 500.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { KEPT_DESCRIPTORS, planDescriptors, readFileLimit } from '../../src/http/descriptors.ts';
import { spawnServer, type ServerProcess } from '../fault/server-child.ts';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max processes             63704                63704                processes
Max open files            20000                20000                files
`;

test('the file limit is the soft "Max open files" of /proc/self/limits; unlimited or unreadable: unknown', () => {
  const rows = [
    { what: 'a number', text: LIMITS, expected: 20_000 },
    { what: 'unlimited', text: LIMITS.replace('20000                20000', 'unlimited            unlimited'), expected: undefined },
    { what: 'no such line', text: 'Limit  Soft Limit\n', expected: undefined },
  ];
  for (const { what, text, expected } of rows) assert.equal(readFileLimit(() => text), expected, what);
  assert.equal(readFileLimit(() => { throw new Error('ENOENT'); }), undefined);
});

test('--max-streams is nine tenths of what the kept descriptors and the pool leave; a configured value that does not fit is lowered, with a warning', () => {
  const connections = 20_000 - KEPT_DESCRIPTORS;
  assert.deepEqual(planDescriptors(20_000, null, 0), { fileLimit: 20_000, maxConnections: connections, maxStreams: Math.floor(connections * 0.9) });
  assert.deepEqual(planDescriptors(20_000, 15_000, 0), { fileLimit: 20_000, maxConnections: connections, maxStreams: 15_000 });
  assert.equal(planDescriptors(20_000, null, 10).maxConnections, connections - 10);
  const lowered = planDescriptors(1024, 10_000, 0);
  assert.equal(lowered.maxStreams, Math.floor((1024 - KEPT_DESCRIPTORS) * 0.9));
  assert.match(lowered.warning!, /^--max-streams 10000 does not fit the file limit of 1024 descriptors \(ulimit -n\): holding at most 864 streams/);
  assert.deepEqual(planDescriptors(undefined, null, 0), { fileLimit: undefined, maxConnections: Infinity, maxStreams: Infinity });
});

async function lowLimitServer(t: TestContext, fileLimit: number, extra: string[] = []): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'chat-descriptors-'));
  const server = await spawnServer(['--db', join(dir, 'chat.db'), ...extra], { fileLimit });
  t.after(async () => {
    await server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  return server;
}

test('a configured --max-streams above what the file limit allows: one warning line on stderr at start', async (t) => {
  const server = await lowLimitServer(t, 512, ['--max-streams', '5000']);
  const lines = server.stderr().split('\n').filter((line) => line.includes('--max-streams'));
  assert.deepEqual(lines, [`--max-streams 5000 does not fit the file limit of 512 descriptors (ulimit -n): holding at most ${Math.floor((512 - KEPT_DESCRIPTORS) * 0.9)} streams; `
    + 'raise the limit (systemd LimitNOFILE, docs/operations.md) to hold more']);
});

// Under tsx the module loader reads hundreds of files at once while starting: 512 descriptors let it start.
test('a connection past what the file limit allows is answered 503 with Retry-After and closed; the server goes on', async (t) => {
  const fileLimit = 512;
  const server = await lowLimitServer(t, fileLimit);
  assert.equal(server.stderr(), '', 'no warning: nothing was configured');
  const { port } = new URL(server.url);
  const held: Socket[] = [];
  t.after(() => held.forEach((socket) => socket.destroy()));
  // Idle connections, as many as the plan allows: each takes a descriptor, none sends a request.
  for (let i = 0; i < fileLimit - KEPT_DESCRIPTORS; i++) {
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    held.push(socket);
  }
  // A sign-up: refused at the door, it must not happen behind the 503.
  const signUp = JSON.stringify({ login: 'refused', password: 'a long enough password' });
  const extra = connect(Number(port), '127.0.0.1');
  extra.write(`POST /users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${signUp.length}\r\n\r\n${signUp}`);
  let answer = '';
  extra.setEncoding('utf8').on('data', (chunk: string) => { answer += chunk; });
  await once(extra, 'close');
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  assert.match(head, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
  assert.match(head, /\r\nRetry-After: 5\r\n/);
  assert.match(head, /\r\nConnection: close(\r\n|$)/);
  assert.equal(JSON.parse(body).code, 'ERR_SERVER_BUSY');
  // Once the held connections close, the server answers again: it lived through it.
  held.forEach((socket) => socket.destroy());
  let status = 0;
  for (let tries = 0; tries < 100 && status !== 200; tries++) {
    status = (await fetch(`${server.url}/health`).catch(() => ({ status: 0 }))).status;
  }
  assert.equal(status, 200);
  const again = await fetch(`${server.url}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: signUp });
  assert.equal(again.status, 201, 'the refused sign-up did not happen');
  assert.match(server.stderr(), /connections: \d+ open, the most the file limit allows; answering 503/);
});
