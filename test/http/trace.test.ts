// --trace: every exchange as raw HTTP/1.1 on stderr with secrets redacted, text bodies cut at 2 KiB, binary
// ones summarised; table tests for the redaction, and the real executable for the whole.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { test } from 'node:test';
import { describeBody, redactBody, redactHeader, redactTarget, TRACE_BODY_LIMIT } from '../../src/http/trace.ts';
import { call, withServer } from './client.ts';
import { startExecutable } from './executable.ts';

test('headers: Authorization keeps its scheme, cookies their names, Set-Cookie its attributes', () => {
  const rows: { what: string; name: string; value: string; expected: string }[] = [
    { what: 'bearer token', name: 'Authorization', value: 'Bearer abc.def', expected: 'Bearer [redacted]' },
    { what: 'any case', name: 'authorization', value: 'bearer abc', expected: 'bearer [redacted]' },
    { what: 'no scheme', name: 'Authorization', value: 'abc', expected: '[redacted]' },
    { what: 'proxy', name: 'Proxy-Authorization', value: 'Basic dXNlcjpwdw==', expected: 'Basic [redacted]' },
    { what: 'cookies', name: 'Cookie', value: 'session=abc; theme=dark', expected: 'session=[redacted]; theme=[redacted]' },
    { what: 'set-cookie', name: 'Set-Cookie', value: 'session=abc; HttpOnly; Path=/', expected: 'session=[redacted]; HttpOnly; Path=/' },
    { what: 'cleared cookie', name: 'set-cookie', value: 'session=; Max-Age=0', expected: 'session=[redacted]; Max-Age=0' },
    { what: 'other header', name: 'Content-Type', value: 'application/json', expected: 'application/json' },
  ];
  for (const row of rows) assert.equal(redactHeader(row.name, row.value), row.expected, row.what);
});

test('bodies: token, password and currentPassword fields are redacted in JSON, forms, multipart, XML and HTML', () => {
  const rows: { what: string; input: string; expected: string }[] = [
    { what: 'JSON login', input: '{"login":"ann","password":"s3cr\\"et"}', expected: '{"login":"ann","password":"[redacted]"}' },
    { what: 'JSON spaced', input: '{ "token" : "abc", "userId": "1" }', expected: '{ "token" : "[redacted]", "userId": "1" }' },
    { what: 'JSON password change', input: '{"data":{"currentPassword":"old","password":"new"}}', expected: '{"data":{"currentPassword":"[redacted]","password":"[redacted]"}}' },
    { what: 'JSON cut inside the secret', input: '{"password":"abc', expected: '{"password":"[redacted]"' },
    { what: 'a field merely containing the word', input: '{"passwordHint":"x","tokens":"y"}', expected: '{"passwordHint":"x","tokens":"y"}' },
    { what: 'form', input: 'login=ann&password=s3cret&x=1', expected: 'login=ann&password=[redacted]&x=1' },
    { what: 'form, first field', input: 'password=s3cret', expected: 'password=[redacted]' },
    { what: 'multipart', input: '--b\r\nContent-Disposition: form-data; name="password"\r\n\r\ns3cret\r\n--b--', expected: '--b\r\nContent-Disposition: form-data; name="password"\r\n\r\n[redacted]\r\n--b--' },
    { what: 'XML', input: '<session><token>abc</token></session>', expected: '<session><token>[redacted]</token></session>' },
    { what: 'HTML page', input: '<dl><dt>token</dt><dd>abc</dd></dl>', expected: '<dl><dt>token</dt><dd>[redacted]</dd></dl>' },
    { what: 'sign-up with an invite', input: '{"login":"bob","inviteCode":"Qk3v"}', expected: '{"login":"bob","inviteCode":"[redacted]"}' },
    { what: 'sign-up form with an invite', input: 'inviteCode=Qk3v&login=bob', expected: 'inviteCode=[redacted]&login=bob' },
    {
      what: 'a new invite in JSON: its code and join URL',
      input: '{"data":{"id":"01J","code":"Qk3v9XbT2mYp7LsW1nHc5dRf8gJa0eUz","url":"http://h/api/join/Qk3v9XbT2mYp7LsW1nHc5dRf8gJa0eUz","uses":0}}',
      expected: '{"data":{"id":"01J","code":"[redacted]","url":"http://h/api/join/[redacted]","uses":0}}',
    },
    { what: 'a problem\'s code stays', input: '{"status":403,"code":"ERR_INVITE_USED_UP"}', expected: '{"status":403,"code":"ERR_INVITE_USED_UP"}' },
    { what: 'a new invite in XML', input: '<invite><code>Qk3v9XbT2mYp7LsW1nHc5dRf8gJa0eUz</code></invite>', expected: '<invite><code>[redacted]</code></invite>' },
    { what: 'other code elements of a page stay', input: '<code>invite.use</code> <code>ERR_DATABASE_UNAVAILABLE</code>', expected: '<code>invite.use</code> <code>ERR_DATABASE_UNAVAILABLE</code>' },
    {
      what: 'the join page and the new invite\'s page',
      input: '<input type="hidden" name="inviteCode" value="Qk3v9XbT"><input id="invite-url" type="text" readonly value="http://h/join/Qk3v9XbT">',
      expected: '<input type="hidden" name="inviteCode" value="[redacted]"><input id="invite-url" type="text" readonly value="http://h/join/[redacted]">',
    },
  ];
  for (const row of rows) assert.equal(redactBody(row.input), row.expected, row.what);
});

test('request targets: the code of a join page\'s path is redacted (the access log and the trace print targets)', () => {
  assert.equal(redactTarget('/join/Qk3v9XbT2mYp7LsW1nHc5dRf8gJa0eUz'), '/join/[redacted]');
  assert.equal(redactTarget('/api/join/abc?x=1'), '/api/join/[redacted]?x=1');
  assert.equal(redactTarget('/invites?limit=5'), '/invites?limit=5');
});

test('bodies: text is cut at 2 KiB with the rest counted; binary or undecodable bodies are summarised', () => {
  const long = Buffer.from(`{"text":"${'x'.repeat(5000)}"}`);
  const lines = describeBody(long, long.length, 'application/json');
  assert.equal(Buffer.byteLength(lines[0]!), TRACE_BODY_LIMIT);
  assert.equal(lines[1], `[... ${long.length - TRACE_BODY_LIMIT} more bytes]`);
  assert.deepEqual(describeBody(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 1234, 'image/png'), ['[1234 bytes image/png]']);
  assert.deepEqual(describeBody(Buffer.from([0xff, 0xfe]), 2, 'text/plain'), ['[2 bytes text/plain]']);
  assert.deepEqual(describeBody(Buffer.from('abc'), 3, undefined), ['[3 bytes of unknown type]']);
  assert.deepEqual(describeBody(Buffer.alloc(0), 0, 'application/json'), []);
  assert.deepEqual(describeBody(Buffer.from('a\r\nb'), 4, 'text/plain; charset=utf-8'), ['a', 'b']);
});

test('the executable with --trace prints each exchange as HTTP/1.1 on stderr, secrets redacted', { timeout: 30_000 }, async (t) => {
  const server = await startExecutable(t, ['--trace', '--quiet']);
  const login = { login: 'tracer', password: 'a secret password' };
  assert.equal((await call(server.url, 'POST', '/users', { json: login })).status, 201);
  const session = await call(server.url, 'POST', '/session', { json: login });
  const token: string = session.body.token;
  const cookie = String(session.headers['set-cookie']).split(';')[0]!;
  const avatar = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(100)]);
  await call(server.url, 'PUT', '/users/nobody/avatar', { token, headers: { 'content-type': 'image/png' }, body: avatar });
  await call(server.url, 'GET', '/session', { headers: { cookie } });
  const stderr = await server.waitForStderr((text) => (text.match(/^\* /gm) ?? []).length === 4);
  assert.ok(!stderr.includes(token), 'the token appears nowhere');
  assert.ok(!stderr.includes(cookie.slice('session='.length)), 'the cookie value appears nowhere');
  assert.ok(!stderr.includes('a secret password'), 'the password appears nowhere');
  const blocks = stderr.split(/\n\n(?=\* )/);
  assert.equal(blocks.length, 4);
  const [register, logIn, upload, read] = blocks as [string, string, string, string];
  assert.match(register, /^\* \S+Z [0-9a-f-]{36} 127\.0\.0\.1:\d+ [\d.]+ ms\n> POST \/users HTTP\/1\.1\n> content-type: application\/json\n> content-length: 49\n> Host: 127\.0\.0\.1:\d+\n/);
  assert.match(register, /\n> \n> \{"login":"tracer","password":"\[redacted\]"\}\n< HTTP\/1\.1 201 Created\n/);
  assert.match(register, /\n< Location: \/users\/[0-9A-Z]{26}\n/);
  assert.match(logIn, /\n< Set-Cookie: session=\[redacted\]; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+\n/);
  assert.match(logIn, /\n< \{"token":"\[redacted\]","userId":"[0-9A-Z]{26}",/);
  assert.match(upload, /\n> authorization: Bearer \[redacted\]\n/);
  assert.match(upload, /\n> \[108 bytes image\/png\]\n/);
  assert.match(read, /\n> cookie: session=\[redacted\]\n/);
  assert.match(read, /\n< HTTP\/1\.1 200 OK\n/);
});

test('in the server: an unread body is shown as it arrived, and a client that leaves mid-body gets a no-answer line', async (t) => {
  const server = await withServer(t, { trace: true, metricsPort: 0, logFormat: 'json', quiet: false });
  const written: string[] = [];
  const logged: string[] = [];
  // Only the server's lines are taken; the test runner's own output on these streams goes through.
  const take = (stream: NodeJS.WriteStream, into: string[], mine: RegExp): void => {
    const original = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    t.mock.method(stream, 'write', (chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk === 'string' && mine.test(chunk)) into.push(chunk);
      else return original(chunk, ...rest);
      return true;
    });
  };
  take(process.stderr, written, /^\* \d{4}-/);
  take(process.stdout, logged, /^\{"time":/);
  // No session: 401 before the body is read.
  const refused = await call(server, 'POST', '/chats', { json: { data: { title: 'unread' } } });
  assert.equal(refused.status, 401);
  // Half a body, then the client goes away: the server never answers.
  const socket = connect(server.port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write('POST /users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"login":"half",');
  const metrics = server.app.services.metrics;
  while (metrics.requests.get('POST', '/users', 'aborted') === 0) {
    if (!socket.destroyed) socket.destroy();
    await new Promise((resolve) => setImmediate(resolve));
  }
  while (written.length < 2 || logged.length < 2) await new Promise((resolve) => setImmediate(resolve));
  t.mock.restoreAll();
  const [unread, left] = written as [string, string];
  assert.match(unread, /\n< HTTP\/1\.1 401 Unauthorized\n/);
  // The body came with the headers, so the trace has it although the handler never read it.
  assert.match(unread, /\n> \{"data":\{"title":"unread"\}\}\n< HTTP/);
  assert.match(left, /\n> \{"login":"half",\n> \[the server read 16 of the 100 bytes declared\]\n< \[no answer was sent: the client left first\]\n\n$/);
  const [, aborted] = logged.map((line) => JSON.parse(line));
  assert.deepEqual([aborted.route, aborted.status, aborted.bytes], ['/users', 0, 0]);
});
