// sendReply never throws (docs/operations.md): a reply Node refuses to write is one log line and a 500, or a cut
// connection when its head is already out, and the same server answers the next request.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import type { Reply } from '../../src/http/reply.ts';
import { sendReply } from '../../src/http/send.ts';
import { call } from './client.ts';

const UNCHECKED = 'a bare node:http server answering with sendReply alone, not the API the OpenAPI document describes';

/** Answers each path with its reply through sendReply, X-Request-Id first as pipeline/handle-request.ts sends it. */
async function serveReplies(t: TestContext, replies: Record<string, { reply: Reply; base?: Record<string, string> }>): Promise<string> {
  const server: Server = createServer((req, res) => {
    const { reply, base } = replies[req.url ?? '/']!;
    sendReply(req, res, reply, [base ?? { 'X-Request-Id': 'r-1' }, undefined, reply.headers], {
      mediaType: 'application/json', basePath: '', negotiated: false, requestId: 'r-1', logFormat: 'text',
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The whole answer to a GET as bytes on the wire (Connection: close), status line first. */
function rawGet(url: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.end(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  });
}

function captureStderr(t: TestContext): string[] {
  const written: string[] = [];
  t.mock.method(process.stderr, 'write', (chunk: string) => { written.push(String(chunk)); return true; });
  return written;
}

const OK: Reply = { status: 200, representation: { kind: 'single', type: 'health', enveloped: false, data: { status: 'ok' } } };
const INTERNAL = { type: 'https://chat-api.invalid/problems/internal', title: 'Internal Server Error', status: 500, detail: 'Internal Server Error', code: 'ERR_INTERNAL' };

test('a header value that is not a field value (RFC 9110 §5.5) is a 500 with one log line; the next request is answered', async (t) => {
  const url = await serveReplies(t, {
    '/above-latin-1': { reply: { status: 303, headers: { Location: '/\u3000' } } },
    '/crlf': { reply: { status: 200, headers: { 'X-Note': 'a\r\nSet-Cookie: session=stolen' }, representation: OK.representation } },
    '/nul': { reply: { status: 204, headers: { 'X-Note': 'a\u0000b' } } },
    '/ok': { reply: OK },
  });
  const rows: [string, number, string][] = [
    ['/above-latin-1', 303, 'Invalid character in header content ["Location"] (ERR_INVALID_CHAR)'],
    ['/crlf', 200, 'Invalid character in header content ["X-Note"] (ERR_INVALID_CHAR)'],
    ['/nul', 204, 'Invalid character in header content ["X-Note"] (ERR_INVALID_CHAR)'],
  ];
  for (const [path, status, reason] of rows) {
    const written = captureStderr(t);
    const res = await call(url, 'GET', path, { unchecked: UNCHECKED, timeoutMs: 10_000 });
    const statusLine = (await rawGet(url, path)).split('\r\n', 1)[0];
    t.mock.restoreAll();
    assert.equal(res.status, 500, path);
    const { date, connection, 'keep-alive': keepAlive, ...headers } = res.headers;
    assert.deepEqual(headers, {
      'x-request-id': 'r-1',
      'content-type': 'application/problem+json',
      'cache-control': 'private, no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'content-length': String(Buffer.byteLength(JSON.stringify(INTERNAL))),
    }, path);
    assert.deepEqual(res.body, INTERNAL, path);
    // The refused reply's reason phrase ("See Other", "No Content") is not left on the 500.
    assert.equal(statusLine, 'HTTP/1.1 500 Internal Server Error', path);
    assert.equal(written.length, 2, `one line per request: ${path}`);
    assert.equal(written[0]!.slice(24), written[1]!.slice(24), path);
    assert.match(written[0]!, new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z r-1 a ${status} reply could not be written, answered 500 instead: ${reason.replace(/[[\]().]/g, '\\$&')}\\n$`), path);
    assert.ok(!written[0]!.includes('stolen'), 'the value itself is never logged');
    assert.equal((await call(url, 'GET', '/ok', { unchecked: UNCHECKED })).status, 200, `answered after ${path}`);
  }
});

test('a throw once the head is out (an event stream) cuts the connection, with one log line; a bad base header too', async (t) => {
  const url = await serveReplies(t, {
    '/stream': { reply: { status: 200, eventStream: () => { throw new Error('the stream broke'); } } },
    '/base': { reply: OK, base: { 'X-Request-Id': 'r-1\n' } },
    '/ok': { reply: OK },
  });
  for (const [path, line] of [
    ['/stream', 'a 200 reply could not be written, the connection was cut: the stream broke'],
    ['/base', 'a 200 reply could not be written, answered 500 instead: Invalid character in header content ["X-Request-Id"] (ERR_INVALID_CHAR)'],
  ] as const) {
    const written = captureStderr(t);
    // The stream's head went out, then its body stopped short; the bad base header left no head to send at all.
    await assert.rejects(call(url, 'GET', path, { unchecked: UNCHECKED, timeoutMs: 10_000 }), /aborted|socket hang up|ECONNRESET/, path);
    t.mock.restoreAll();
    assert.equal(written.length, 1, path);
    assert.ok(written[0]!.endsWith(` r-1 ${line}\n`), written[0]);
    assert.equal((await call(url, 'GET', '/ok', { unchecked: UNCHECKED })).status, 200, `answered after ${path}`);
  }
});
