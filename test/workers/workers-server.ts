// The --workers 2 server the tests under test/workers/ start: two processes on one port and one database file in a
// directory of its own, killed and removed when the test ends; and a user registered and logged in through it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { call } from '../http/client.ts';
import { spawnServer, type ServerProcess } from '../fault/server-child.ts';

export async function startWorkers(t: TestContext, extra: string[] = []): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'chat-workers-'));
  const server = await spawnServer(['--db', join(dir, 'chat.db'), '--workers', '2', '--scrypt-n', '1024', '--quiet', ...extra]);
  t.after(async () => {
    await server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  return server;
}

export async function register(url: string, login: string): Promise<{ token: string; userId: string; password: string }> {
  const password = 'a long enough password';
  const user = await call(url, 'POST', '/users', { json: { login, password } });
  assert.equal(user.status, 201, user.text);
  const session = await call(url, 'POST', '/session', { json: { login, password } });
  assert.equal(session.status, 201, session.text);
  return { token: session.body.token, userId: user.body.id, password };
}
