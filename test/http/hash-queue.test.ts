// Password hashing under a flood, over HTTP: a bounded queue (503 past it), sign-in ahead of sign-up, and
// queued work dropped when its client leaves. A gated key derivation holds the hasher busy, so nothing races.
import assert from 'node:assert/strict';
import { scryptSync } from 'node:crypto';
import { connect } from 'node:net';
import { test } from 'node:test';
import { PasswordHasher, type DeriveKey } from '../../src/resources/session/password-hasher.ts';
import { call, withServer, type TestResponse } from './client.ts';

/** Resolves once `condition` holds, checking after each turn of the event loop (no fixed sleeps). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** One hash at a time; each waits for `releaseNext()`. `started` lists the passwords in the order hashed. */
function gatedHasher(maxQueued: number) {
  const started: string[] = [];
  const gates: (() => void)[] = [];
  const derive: DeriveKey = async (password, salt, n, r, p) => {
    started.push(password);
    await new Promise<void>((resolve) => gates.push(resolve));
    return scryptSync(password.normalize('NFC'), salt, 32, { N: n, r, p });
  };
  return {
    hasher: new PasswordHasher({ n: 1024, concurrency: 1, maxQueued, refusalPauseMs: 0, derive }),
    started,
    async releaseNext(): Promise<void> {
      await until(() => gates.length > 0);
      gates.shift()!();
    },
  };
}

const register = (server: Parameters<typeof call>[0], login: string): Promise<TestResponse> =>
  call(server, 'POST', '/users', { json: { login, password: `${login} password` } });

test('past the queue cap a registration is 503 with Retry-After; a login during the flood is hashed at once, registrations after it', async (t) => {
  const server = await withServer(t);
  assert.equal((await register(server, 'alice')).status, 201);
  const gate = gatedHasher(2);
  server.app.services.hasher = gate.hasher;
  const first = register(server, 'flood1');
  await until(() => gate.started.length === 1);
  // One after the other into the queue: each first looks its login up, and two lookups may answer in either
  // order on a database server (PostgreSQL), which would decide the queue's order instead of the test.
  const queued = [register(server, 'flood2')];
  await until(() => gate.hasher.queued.background === 1);
  queued.push(register(server, 'flood3'));
  await until(() => gate.hasher.queued.background === 2);
  const refused = await register(server, 'flood4');
  assert.equal(refused.status, 503);
  assert.equal(refused.body.code, 'ERR_SERVER_BUSY');
  assert.match(String(refused.headers['retry-after']), /^[1-9]\d*$/);
  // Sign-in has its own budget: it is neither refused nor made to wait for the registration being hashed.
  const login = call(server, 'POST', '/session', { json: { login: 'alice', password: 'alice password' } });
  await until(() => gate.started.length === 2);
  assert.equal(gate.started[1], 'alice password');
  // While the login hashes, no further registration starts, though the registration budget is free.
  await gate.releaseNext();
  assert.equal((await first).status, 201);
  assert.deepEqual(gate.started, ['flood1 password', 'alice password']);
  assert.deepEqual(gate.hasher.queued, { interactive: 0, background: 2 });
  for (let i = 0; i < 3; i++) await gate.releaseNext();
  assert.deepEqual(gate.started, ['flood1 password', 'alice password', 'flood2 password', 'flood3 password']);
  assert.equal((await login).status, 201);
  assert.deepEqual((await Promise.all(queued)).map((res) => res.status), [201, 201]);
  assert.equal(await server.app.services.storage.users.findUserByLogin('flood4'), undefined, 'the refused registration created nothing');
});

test('a registration whose client leaves while it waits is never hashed, and the abort is one log line', async (t) => {
  const server = await withServer(t);
  const gate = gatedHasher(8);
  server.app.services.hasher = gate.hasher;
  const lines: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  t.after(() => { process.stderr.write = write; });
  const first = register(server, 'stays');
  await until(() => gate.started.length === 1);
  const body = JSON.stringify({ login: 'leaves', password: 'leaves password' });
  const socket = connect(server.port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(`POST /users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  await until(() => gate.hasher.queued.background === 1);
  socket.destroy();
  await until(() => gate.hasher.queued.background === 0 && lines.length > 0);
  await gate.releaseNext();
  assert.equal((await first).status, 201);
  assert.deepEqual(gate.started, ['stays password'], 'the abandoned registration was never hashed');
  assert.equal(await server.app.services.storage.users.findUserByLogin('leaves'), undefined);
  process.stderr.write = write;
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /^\S+ [0-9a-f-]{36} client closed the connection before the answer\n$/);
});

test('a client that leaves in the middle of its body is one log line, not a stack trace', async (t) => {
  const server = await withServer(t);
  const lines: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  t.after(() => { process.stderr.write = write; });
  const socket = connect(server.port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write('POST /users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"login": "half', () => socket.destroy());
  await until(() => lines.length > 0);
  process.stderr.write = write;
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /client closed the connection before the answer\n$/);
  assert.doesNotMatch(lines[0]!, /\n\s+at /);
  assert.equal((await call(server, 'GET', '/health')).status, 200);
});
