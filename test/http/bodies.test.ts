// Request bodies and framing: 415, 400, 413 (declared and streamed), duplicate Host, conflicting framing, 5xx.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { call, rawExchange, registerAndLogIn, runSql, withServer } from './client.ts';

test('a JSON body with another Content-Type is a 415', async (t) => {
  const server = await withServer(t);
  const res = await call(server, 'POST', '/users', { body: '{"login":"abc","password":"12345678"}', headers: { 'content-type': 'text/plain' } });
  assert.equal(res.status, 415);
  assert.equal(res.body.code, 'ERR_UNSUPPORTED_MEDIA_TYPE');
  const none = await call(server, 'POST', '/users', { body: '{}' });
  assert.equal(none.status, 415);
});

test('malformed JSON and non-object JSON are 400', async (t) => {
  const server = await withServer(t);
  for (const body of ['{"login":', '[1,2]', '"text"', 'null', '42', '\xff\xfe{}']) {
    const res = await call(server, 'POST', '/users', { body: Buffer.from(body, 'latin1'), headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400, body);
    assert.equal(res.body.code, 'ERR_BAD_JSON', body);
  }
});

test('a declared Content-Length over the limit is a 413 before the body is read', async (t) => {
  const server = await withServer(t, { maxBodyBytes: 1000 });
  const answer = await rawExchange(server, 'POST /users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{', { endAfterWrite: false });
  assert.match(answer, /^HTTP\/1\.1 413 /);
  assert.match(answer, /"code":"ERR_BODY_TOO_LARGE"/);
});

test('a streamed body over the limit is a 413 while it is still streaming, and the server stays up', async (t) => {
  const server = await withServer(t, { maxBodyBytes: 64 * 1024 });
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(`${server.url}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, agent: false }, (res) => {
      resolve(res.statusCode!);
      res.resume();
      req.destroy();
    });
    req.on('error', (error: NodeJS.ErrnoException) => (['ECONNRESET', 'EPIPE'].includes(error.code ?? '') ? undefined : reject(error)));
    // Chunked, no Content-Length: the limit can only be found by counting. Never ends by itself.
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const pump = (): void => {
      while (!req.destroyed && req.write(chunk));
      if (!req.destroyed) req.once('drain', pump);
    };
    req.write('{"login":"');
    pump();
  });
  assert.equal(status, 413);
  assert.equal((await call(server, 'GET', '/health')).status, 200);
});

test('two Host headers are refused with 400', async (t) => {
  const server = await withServer(t);
  const answer = await rawExchange(server, 'GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n');
  assert.match(answer, /^HTTP\/1\.1 400 /);
});

test('conflicting framing headers are refused with 400', async (t) => {
  const server = await withServer(t);
  const both = await rawExchange(server, 'POST /users HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n');
  assert.match(both, /^HTTP\/1\.1 400 /);
  const twoLengths = await rawExchange(server, 'POST /users HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd');
  assert.match(twoLengths, /^HTTP\/1\.1 400 /);
});

test('a 5xx says only its status text: no stack, no SQL', async (t) => {
  const server = await withServer(t);
  const registered = await call(server, 'POST', '/users', { json: { login: 'broken', password: 'long enough pw' } });
  assert.equal(registered.status, 201);
  const original = process.stderr.write;
  const logged: string[] = [];
  process.stderr.write = ((chunk: string) => { logged.push(String(chunk)); return true; }) as typeof process.stderr.write;
  t.after(() => { process.stderr.write = original; });
  await runSql(server, 'DROP TABLE sessions');
  const res = await call(server, 'POST', '/session', {
    json: { login: 'broken', password: 'long enough pw' },
    unchecked: 'the database is broken on purpose: a 500 is a bug, never a documented answer',
  });
  process.stderr.write = original;
  assert.equal(res.status, 500);
  assert.deepEqual(res.body, { type: 'https://chat-api.invalid/problems/internal', title: 'Internal Server Error', status: 500, detail: 'Internal Server Error', code: 'ERR_INTERNAL' });
  assert.doesNotMatch(res.text, /sessions|SQLITE|at /);
  assert.match(logged.join(''), /no such table: sessions|relation "sessions" does not exist/);
});

test('what the HTTP parser refuses is still a problem document, and the connection closes', async (t) => {
  const server = await withServer(t);
  const rows = [
    { what: 'conflicting framing', bytes: 'POST /users HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', status: 400, code: 'ERR_BAD_REQUEST' },
    { what: 'an unknown method', bytes: 'FOO /health HTTP/1.1\r\nHost: a\r\n\r\n', status: 400, code: 'ERR_BAD_REQUEST' },
    { what: 'a malformed request line', bytes: 'GET /health HTTP/9.9 extra\r\n\r\n', status: 400, code: 'ERR_BAD_REQUEST' },
    { what: 'a header section over 16 KiB', bytes: `GET /health HTTP/1.1\r\nHost: a\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`, status: 431, code: 'ERR_HEADERS_TOO_LARGE' },
    { what: 'CONNECT', bytes: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', status: 405, code: 'ERR_METHOD_NOT_ALLOWED' },
  ];
  for (const { what, bytes, status, code } of rows) {
    const answer = await rawExchange(server, bytes, { endAfterWrite: false });
    const [head, body] = answer.split('\r\n\r\n') as [string, string];
    assert.match(head, new RegExp(`^HTTP/1\\.1 ${status} `), what);
    assert.match(head, /\r\nContent-Type: application\/problem\+json\r\n/, what);
    assert.match(head, /\r\nConnection: close/, what);
    assert.match(head, /\r\nX-Request-Id: [0-9a-f-]{36}\r\n/, what);
    const problem = JSON.parse(body);
    assert.equal(problem.status, status, what);
    assert.equal(problem.code, code, what);
    assert.equal(Buffer.byteLength(body), Number(/Content-Length: (\d+)/.exec(head)![1]), what);
  }
  assert.equal((await call(server, 'GET', '/health')).status, 200, 'and the server stays up');
});

test('a chat or message body without its {"data": …} envelope says the envelope is missing and shows the shape to send', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server);
  const bare = await call(server, 'POST', '/chats', { token: alice.token, json: { title: 'Team', members: [] } });
  assert.equal(bare.status, 400);
  assert.equal(bare.body.code, 'ERR_VALIDATION');
  assert.equal(bare.body.detail, 'data: is missing: this body must be wrapped in an envelope, {"data": {"title": …, "members": …}}');
  assert.deepEqual(bare.body.errors, [{ field: 'data', message: 'is missing: this body must be wrapped in an envelope, {"data": {"title": …, "members": …}}' }]);
  const chat = await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Team' } } });
  assert.equal(chat.status, 201);
  const message = await call(server, 'POST', `/chats/${chat.body.data.id}/messages`, { token: alice.token, json: { text: 'hi' } });
  assert.equal(message.status, 400);
  assert.equal(message.body.detail, 'data: is missing: this body must be wrapped in an envelope, {"data": {"text": …}}');
  // Many bare fields: the shape shows the first four; a long name is cut.
  const many = await call(server, 'POST', '/chats', { token: alice.token, json: { a: 1, b: 2, c: 3, d: 4, e: 5 } });
  assert.equal(many.body.detail, 'data: is missing: this body must be wrapped in an envelope, {"data": {"a": …, "b": …, "c": …, "d": …, …}}');
  // With the envelope present, another top-level field is still an unknown field; an empty body says data is required.
  const extra = await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'x' }, title: 'y' } });
  assert.deepEqual(extra.body.errors, [{ field: 'title', message: 'is not a known field' }]);
  const empty = await call(server, 'POST', '/chats', { token: alice.token, json: {} });
  assert.equal(empty.status, 400);
  assert.deepEqual(empty.body.errors.map((error: { field: string }) => error.field), ['data']);
});
