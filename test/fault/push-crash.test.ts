// Durable pushes (docs/protocol.md §17.3, docs/push.md "What runs where"): SIGKILL the real server in the middle of a
// fan-out to 150 subscriptions, restart it on the same file; every subscription is pushed, and only pushes answered
// but not yet recorded at the kill (at most the loop's 64 in flight) arrive twice.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { spawnServer, type ServerProcess } from './server-child.ts';

const MEMBERS = 150;
const KILL_AFTER = 40;
const PASSWORD = 'a long enough password';
const P256DH = Buffer.concat([Buffer.from([4]), Buffer.from('6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5', 'hex')]).toString('base64url');

async function call(url: string, method: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(url, {
    method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.status < 300, `${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

test(`SIGKILL during a fan-out to ${MEMBERS} subscriptions loses no push and repeats only those in flight`, { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'push-crash-'));
  let server: ServerProcess | undefined;
  const arrived: string[] = [];
  let onArrival = (): void => {};
  const service = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(201).end();
      arrived.push(req.url ?? '');
      onArrival();
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    await server?.kill('SIGKILL');
    service.closeAllConnections();
    service.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const args = ['--db', join(dir, 'chat.db'), '--scrypt-n', '1024', '--quiet', '--login-rate', '0', '--push-subject', 'mailto:ops@chat.example', '--push-allow-insecure'];
  server = await spawnServer(args);
  const origin = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  const users = [];
  for (let n = 0; n <= MEMBERS; n++) {
    const login = `member${n}`;
    const user = await call(`${server.url}/users`, 'POST', { login, password: PASSWORD });
    const { token } = await call(`${server.url}/session`, 'POST', { login, password: PASSWORD });
    if (n > 0) await call(`${server.url}/push-subscriptions`, 'POST', { endpoint: `${origin}/push/${n}`, keys: { p256dh: P256DH, auth: Buffer.alloc(16, n).toString('base64url') } }, token);
    users.push({ id: user.id as string, token: token as string });
  }
  const [owner, ...members] = users;
  const chat = await call(`${server.url}/chats`, 'POST', { data: { title: 'Everyone', members: members.map((member) => member.id) } }, owner!.token);
  const killed = new Promise<void>((resolve) => {
    onArrival = () => {
      if (arrived.length !== KILL_AFTER) return;
      onArrival = () => {};
      void server!.kill('SIGKILL').then(resolve);
    };
  });
  await call(`${server.url}/chats/${chat.data.id}/messages`, 'POST', { data: { text: '@all the building is closing early' } }, owner!.token);
  await killed;
  const beforeKill = arrived.length;
  server = await spawnServer(args);
  // The killed process's leases run out (30 s), and the restarted one sends the rest.
  const all = new Set(members.map((_, n) => `/push/${n + 1}`));
  const deadline = Date.now() + 90_000;
  while ([...all].some((path) => !arrived.includes(path)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  t.diagnostic(`${beforeKill} pushed before the kill, ${arrived.length} in all`);
  assert.deepEqual([...all].filter((path) => !arrived.includes(path)), [], 'no push is lost');
  const repeats = arrived.length - new Set(arrived).size;
  assert.ok(repeats <= 64, `${repeats} pushes arrived twice; only those in flight at the kill may`);
});
