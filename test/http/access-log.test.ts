// The access log: one line per exchange as text (the default) or JSON; error lines carry the request id.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { test } from 'node:test';
import { formatAccessLine, formatErrorLine } from '../../src/http/access-log.ts';
import { call, registerAndLogIn, runSql, withServer } from './client.ts';
import { startExecutable } from './executable.ts';

const record = { time: Date.UTC(2026, 10, 21, 9, 30), requestId: 'r-1', method: 'GET', route: '/chats/:chatId', path: '/chats/01X?limit=2', status: 200, bytes: 321, durationMs: 4.04 };

test('a text line has time, request id, method, target, status, bytes and duration; JSON the same as fields', () => {
  assert.equal(formatAccessLine('text', record), '2026-11-21T09:30:00.000Z r-1 GET /chats/01X?limit=2 200 321B 4.0ms\n');
  assert.equal(formatAccessLine('text', { ...record, userId: 'U1' }), '2026-11-21T09:30:00.000Z r-1 GET /chats/01X?limit=2 200 321B 4.0ms user=U1\n');
  assert.deepEqual(JSON.parse(formatAccessLine('json', { ...record, userId: 'U1' })), {
    time: '2026-11-21T09:30:00.000Z', level: 'info', requestId: 'r-1', method: 'GET', route: '/chats/:chatId', path: '/chats/01X?limit=2', status: 200, bytes: 321, durationMs: 4, userId: 'U1',
  });
  assert.equal(JSON.parse(formatAccessLine('json', { ...record, status: 503 })).level, 'error');
  assert.equal('userId' in JSON.parse(formatAccessLine('json', record)), false, 'userId only when known');
});

test('an error line carries the request id on every line of the stack (text) or as a field (JSON)', () => {
  const error = new Error('boom');
  error.stack = 'Error: boom\n    at a (x.ts:1:1)\n    at b (y.ts:2:2)';
  assert.equal(formatErrorLine('text', record.time, 'r-9', error), [
    '2026-11-21T09:30:00.000Z r-9 Error: boom',
    '2026-11-21T09:30:00.000Z r-9     at a (x.ts:1:1)',
    '2026-11-21T09:30:00.000Z r-9     at b (y.ts:2:2)',
    '',
  ].join('\n'));
  assert.deepEqual(JSON.parse(formatErrorLine('json', record.time, 'r-9', error)), {
    time: '2026-11-21T09:30:00.000Z', level: 'error', requestId: 'r-9', message: 'boom', stack: error.stack,
  });
  assert.equal(JSON.parse(formatErrorLine('json', record.time, 'r-9', 'a thrown string')).message, 'a thrown string');
});

test('a 5xx logs its stack with the request id the client saw', async (t) => {
  for (const logFormat of ['text', 'json'] as const) {
    const server = await withServer(t, { logFormat });
    const written: string[] = [];
    t.mock.method(process.stderr, 'write', (chunk: string) => { written.push(String(chunk)); return true; });
    // A table gone makes the next read throw an unexpected error (either backend).
    await runSql(server, 'ALTER TABLE users RENAME TO users_gone');
    const res = await call(server, 'POST', '/session', {
      json: { login: 'nobody', password: 'whatever it is' },
      unchecked: 'the database is broken on purpose: a 500 is a bug, never a documented answer',
    });
    t.mock.restoreAll();
    assert.equal(res.status, 500);
    assert.ok(!res.text.includes('users'), 'the client sees no stack');
    const requestId = String(res.headers['x-request-id']);
    const lines = written.join('').trimEnd().split('\n');
    assert.ok(lines.length > 0);
    if (logFormat === 'json') {
      assert.equal(lines.length, 1);
      const line = JSON.parse(lines[0]!);
      assert.equal(line.requestId, requestId);
      assert.equal(line.level, 'error');
      assert.match(line.stack, /no such table: users|relation "users" does not exist/);
    } else {
      assert.ok(lines.length > 1, 'the stack spans lines');
      for (const line of lines) assert.ok(line.includes(` ${requestId} `), line);
    }
  }
});

test('the executable with --log-format json writes one JSON object per exchange on stdout', { timeout: 30_000 }, async (t) => {
  const server = await startExecutable(t, ['--log-format', 'json']);
  const login = { login: 'logger', password: 'a long password' };
  const registered = await call(server.url, 'POST', '/users', { json: login });
  const session = await call(server.url, 'POST', '/session', { json: login });
  const chats = await call(server.url, 'GET', '/chats?limit=5', { token: session.body.token });
  const missing = await call(server.url, 'GET', `/users/${registered.body.id}/nothing`);
  const join = await call(server.url, 'GET', '/join/Qk3v9XbT2mYp7LsW1nHc5dRf8gJa0eUz');
  const stdout = await server.waitForStdout((text) => text.split('\n').filter((line) => line.startsWith('{')).length === 5);
  const lines = stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
  const fields = ['time', 'level', 'requestId', 'method', 'route', 'path', 'status', 'bytes', 'durationMs'];
  for (const line of lines) {
    for (const field of fields) assert.ok(field in line, `${field} in ${JSON.stringify(line)}`);
    assert.match(line.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(typeof line.durationMs, 'number');
  }
  const [first, second, third, fourth, fifth] = lines;
  assert.deepEqual({ ...first, time: 0, durationMs: 0 }, {
    time: 0, level: 'info', requestId: registered.headers['x-request-id'], method: 'POST', route: '/users', path: '/users', status: 201, bytes: registered.raw.length, durationMs: 0,
  });
  assert.equal(second.route, '/session');
  assert.equal(second.userId, undefined, 'logging in has no caller yet');
  assert.deepEqual([third.route, third.path, third.status, third.bytes, third.userId], ['/chats', '/chats?limit=5', 200, chats.raw.length, registered.body.id]);
  assert.deepEqual([fourth.route, fourth.status, fourth.bytes], ['unmatched', 404, missing.raw.length]);
  // An invite's code is a secret: its join page's path is logged without it.
  assert.deepEqual([fifth.route, fifth.path, fifth.status], ['/join/:code', '/join/[redacted]', join.status]);
  assert.ok(!stdout.includes('Qk3v9XbT2mYp7LsW1nHc5dRf8gJa0eUz'));
});

test('the executable logs text lines by default', { timeout: 30_000 }, async (t) => {
  const server = await startExecutable(t, []);
  const res = await call(server.url, 'GET', '/health');
  const stdout = await server.waitForStdout((text) => text.includes(' GET /health '));
  const line = stdout.split('\n').find((candidate) => candidate.includes(' GET /health '));
  assert.equal(line?.replace(/^\S+Z /, 'TIME ').replace(/ [\d.]+ms$/, ' Nms'), `TIME ${res.headers['x-request-id']} GET /health 200 ${res.raw.length}B Nms`);
});

test('an event stream gets its line when its connection closes: 200, and the body bytes its client received', async (t) => {
  const server = await withServer(t, { quiet: false, logFormat: 'json' });
  const { token } = await registerAndLogIn(server);
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  t.mock.method(process.stdout, 'write', (chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (String(chunk).includes('"/events"')) {
      lines.push(String(chunk));
      return true;
    }
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  });
  const socket = connect(server.port, '127.0.0.1', () => socket.write(`GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${token}\r\n\r\n`));
  let received = '';
  socket.on('data', (data: Buffer) => { received += data.toString('latin1'); });
  // The stream has left node:http (a turn after its head) well before its replay ends with `ready`.
  while (!received.includes('event: ready')) await once(socket, 'data');
  assert.deepEqual(lines, [], 'no line while the stream is open');
  socket.destroy();
  while (lines.length === 0) await new Promise((resolve) => setImmediate(resolve));
  const line = JSON.parse(lines[0]!);
  assert.deepEqual([line.method, line.route, line.status], ['GET', '/events', 200]);
  assert.equal(line.bytes, received.length - received.indexOf('\r\n\r\n') - 4, 'the chunked body as it went out');
});
