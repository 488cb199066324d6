// --workers 2 (docs/protocol.md §12.1): one port, one database file, two processes; every rule about shared state holds
// across them. Each request below opens its own connection, which the cluster hands to the workers in turn.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { call } from '../http/client.ts';
import { openReady, type EventStream } from '../http/event-stream.ts';
import { register, startWorkers } from './workers-server.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** The worker processes of a primary: its children running the server (tsx also starts an esbuild child). */
function workerPids(primary: number): number[] {
  const out = spawnSync('pgrep', ['-P', String(primary)], { encoding: 'utf8' }).stdout;
  return out.split('\n').filter((line) => line !== '').map(Number)
    .filter((pid) => { try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('main.ts'); } catch { return false; } })
    .sort();
}

test('--workers 2: a session made on one process works on the other, and logout ends it on both', { timeout: 60_000 }, async (t) => {
  const server = await startWorkers(t);
  assert.equal(workerPids(server.child.pid!).length, 2);
  const alice = await register(server.url, 'alice');
  for (let i = 0; i < 6; i++) assert.equal((await call(server.url, 'GET', '/session', { token: alice.token })).status, 200);
  assert.equal((await call(server.url, 'DELETE', '/session', { token: alice.token })).status, 204);
  for (let i = 0; i < 6; i++) assert.equal((await call(server.url, 'GET', '/session', { token: alice.token })).status, 401);
});

test('--workers 2: the failed-login limit and the write limit count requests of every process together', { timeout: 60_000 }, async (t) => {
  const server = await startWorkers(t, ['--login-max-failures', '3', '--write-rate', '5']);
  const alice = await register(server.url, 'alice');
  const wrong = [];
  for (let i = 0; i < 4; i++) wrong.push((await call(server.url, 'POST', '/session', { json: { login: 'alice', password: `wrong ${i} password` } })).status);
  assert.deepEqual(wrong, [401, 401, 401, 429]);
  const writes = [];
  for (let i = 0; i < 6; i++) writes.push(await call(server.url, 'POST', '/chats', { token: alice.token, json: { data: { title: `Chat ${i}` } } }));
  assert.deepEqual(writes.map((res) => res.status), [201, 201, 201, 201, 201, 429]);
  assert.deepEqual(writes.map((res) => res.headers['ratelimit']?.toString().replace(/;t=\d+$/, '')),
    [4, 3, 2, 1, 0, 0].map((left) => `"writes";r=${left}`));
  assert.equal(writes[5]!.headers['ratelimit-policy'], '"writes";q=5;w=60');
  const chats = await call(server.url, 'GET', '/chats', { token: alice.token });
  assert.equal(chats.body.meta.total, 5, 'the refused write wrote nothing');
});

test('--workers 2: an event written by any process reaches every stream on every process, in order, exactly once', { timeout: 60_000 }, async (t) => {
  const server = await startWorkers(t);
  const alice = await register(server.url, 'alice');
  const bob = await register(server.url, 'bob');
  const chat = await call(server.url, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Across', members: [bob.userId] } } });
  const streams: EventStream[] = [];
  for (let i = 0; i < 4; i++) streams.push(await openReady(server.url, { token: i % 2 === 0 ? alice.token : bob.token }));
  t.after(() => streams.forEach((stream) => stream.close()));
  const posted = await Promise.all(Array.from({ length: 4 }, async (_, writer) => {
    const ids = [];
    for (let n = 0; n < 25; n++) {
      const res = await call(server.url, 'POST', `/chats/${chat.body.data.id}/messages`, { token: writer % 2 === 0 ? alice.token : bob.token, json: { data: { text: `w${writer} n${n}` } } });
      assert.equal(res.status, 201, res.text);
      ids.push(res.body.data.id as string);
    }
    return ids;
  }));
  const all = new Set(posted.flat());
  for (const stream of streams) await stream.logEventCount(100);
  const first = streams[0]!.logEvents.map((event) => `${event.id} ${event.json.data.id}`);
  for (const stream of streams) {
    const seen = stream.logEvents.map((event) => `${event.id} ${event.json.data.id}`);
    assert.deepEqual(seen, first, 'every stream saw the same events in the same order');
    const ids = stream.logEvents.map((event) => Number(event.id));
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
    assert.equal(new Set(ids).size, 100, 'no event twice');
  }
  assert.deepEqual(new Set(streams[0]!.logEvents.map((event) => event.json.data.id)), all);
});

test('--workers 2: processes racing to PUT the same new chat id give one 201 and 200s, never a 500', { timeout: 60_000 }, async (t) => {
  const server = await startWorkers(t);
  const alice = await register(server.url, 'alice');
  for (let round = 0; round < 5; round++) {
    const statuses = await Promise.all(Array.from({ length: 12 }, () =>
      call(server.url, 'PUT', `/chats/race-${round}`, { token: alice.token, json: { data: { title: `Race ${round}` } } }).then((res) => res.status)));
    assert.deepEqual(statuses.filter((status) => status === 201).length, 1, `round ${round}: ${statuses.join(' ')}`);
    assert.ok(statuses.every((status) => status === 201 || status === 200), statuses.join(' '));
  }
  const chats = await call(server.url, 'GET', '/chats?limit=100', { token: alice.token });
  assert.equal(chats.body.meta.total, 5, 'no duplicate chat');
  const events = await call(server.url, 'GET', '/events?after=0&wait=0', { token: alice.token });
  assert.equal(events.body.data.filter((event: { type: string }) => event.type === 'chat.created').length, 5);
});

test('--workers 2: sign-ups racing on both processes for an invite\'s last uses: exactly maxUses of them get in', { timeout: 60_000 }, async (t) => {
  const server = await startWorkers(t, ['--registration', 'invite']);
  const alice = await register(server.url, 'alice');
  for (let round = 0; round < 3; round++) {
    const invite = await call(server.url, 'POST', '/invites', { token: alice.token, json: { data: { maxUses: 2 } } });
    assert.equal(invite.status, 201, invite.text);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => call(server.url, 'POST', '/users', {
      json: { login: `racer-${round}-${i}`, password: 'a long enough password', inviteCode: invite.body.data.code },
    })));
    const statuses = answers.map((res) => res.status);
    assert.equal(statuses.filter((status) => status === 201).length, 2, `round ${round}: ${statuses.join(' ')}`);
    assert.ok(answers.every((res) => res.status === 201 || res.body.code === 'ERR_INVITE_USED_UP'), statuses.join(' '));
    const read = await call(server.url, 'GET', `/invites/${invite.body.data.id}`, { token: alice.token });
    assert.equal(read.body.data.uses, 2);
  }
  assert.equal((await call(server.url, 'GET', '/users', { token: alice.token })).body.meta.total, 7);
});

test('--workers 2: SIGKILL of a worker during a write burst loses no acknowledged write or event; the primary replaces it', { timeout: 90_000 }, async (t) => {
  const server = await startWorkers(t);
  const alice = await register(server.url, 'alice');
  const chat = await call(server.url, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Crash' } } });
  const chatId = chat.body.data.id as string;
  const before = workerPids(server.child.pid!);
  assert.equal(before.length, 2);
  const acknowledged: string[] = [];
  let killed = false;
  const writer = async (id: number): Promise<void> => {
    for (let n = 0; n < 60; n++) {
      try {
        // A connection the primary was handing to the worker as it died gets no answer (node:cluster keeps
        // it): like any client, give up after a while; it was never acknowledged.
        const res = await call(server.url, 'POST', `/chats/${chatId}/messages`, { token: alice.token, json: { data: { text: `writer ${id} ${n}` } }, timeoutMs: 5000 });
        if (res.status === 201) acknowledged.push(res.body.data.id);
        else assert.fail(`${res.status} ${res.text}`);
      } catch (error) {
        // A request on the killed worker's connection fails: never acknowledged, so nothing is owed.
        assert.ok(killed, `failed before the kill: ${(error as Error).message}`);
      }
      if (!killed && acknowledged.length >= 40) {
        killed = true;
        process.kill(before[0]!, 'SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, (_, id) => writer(id)));
  assert.ok(killed);
  // The primary forks a replacement: wait for two workers again, neither of them the killed one.
  for (let tries = 0; tries < 400; tries++) {
    const now = workerPids(server.child.pid!);
    if (now.length === 2 && !now.includes(before[0]!)) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const after = workerPids(server.child.pid!);
  assert.equal(after.length, 2);
  assert.ok(!after.includes(before[0]!), 'the killed worker was replaced');
  const stored = new Set<string>();
  for (let cursor = ''; ;) {
    const page = await call(server.url, 'GET', `/chats/${chatId}/messages?limit=100${cursor ? `&after=${cursor}` : ''}`, { token: alice.token });
    for (const message of page.body.data) stored.add(message.id);
    if (page.body.data.length < 100) break;
    cursor = page.body.data.at(-1).id;
  }
  assert.deepEqual(acknowledged.filter((id) => !stored.has(id)), [], 'every acknowledged message is stored');
  const created: string[] = [];
  for (let after = '0'; ;) {
    const page = await call(server.url, 'GET', `/events?after=${after}&wait=0`, { token: alice.token });
    for (const event of page.body.data) if (event.type === 'message.created') created.push(event.data.id);
    if (page.body.data.length === 0) break;
    after = page.body.meta.lastEventId;
  }
  assert.equal(new Set(created).size, created.length, 'no event twice');
  assert.deepEqual([...stored].filter((id) => !created.includes(id)), [], 'every stored message has its event');
});

test('--workers 2: six form posts whose _back holds a character above U+00FF end no worker; /health stays 200', { timeout: 60_000 }, async (t) => {
  const server = await startWorkers(t);
  const alice = await register(server.url, 'alice');
  const chat = await call(server.url, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Marks' } } });
  const before = workerPids(server.child.pid!);
  assert.equal(before.length, 2);
  // The request that ended a worker with ERR_INVALID_CHAR (docs/html.md, forms rule 4), each on its own connection.
  for (let i = 0; i < 6; i++) {
    const res = await call(server.url, 'POST', `/chats/${chat.body.data.id}/read`, {
      body: '_method=PUT&lastReadId=&_back=/%E3%80%80',
      headers: { cookie: `session=${alice.token}`, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
      unchecked: 'an HTML form post (docs/html.md) is outside the OpenAPI document, which describes the JSON exchange',
      timeoutMs: 10_000,
    });
    assert.equal(res.status, 303, res.text);
    assert.equal(res.headers['location'], '/%E3%80%80');
    assert.equal((await call(server.url, 'GET', '/health', { timeoutMs: 10_000 })).status, 200);
  }
  assert.deepEqual(workerPids(server.child.pid!), before, 'no worker died and was replaced');
  assert.equal(server.child.exitCode, null);
});

test('--workers 2: SIGTERM drains both workers and the primary exits 0; :memory: with workers is refused', { timeout: 60_000 }, async (t) => {
  const server = await startWorkers(t);
  const alice = await register(server.url, 'alice');
  const stream = await openReady(server.url, { token: alice.token });
  await server.kill('SIGTERM');
  await stream.ended;
  assert.equal(server.child.exitCode, 0);
  const refused = spawnSync(process.execPath, ['--import', 'tsx', MAIN, '--db', ':memory:', '--workers', '2'], { encoding: 'utf8' });
  assert.equal(refused.status, 2);
  assert.equal(refused.stderr, 'chat-server: --workers above 1 needs a database file: each process would get its own :memory: database\n');
  const bad = spawnSync(process.execPath, ['--import', 'tsx', MAIN, '--workers', 'many'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr, 'chat-server: --workers: expected auto or an integer from 1 to 256, got "many"\n');
});

test('--workers 2: an erasure on one process ends the account everywhere: its token, its streams on both, and its login is free', { timeout: 60_000 }, async (t) => {
  const server = await startWorkers(t, ['--registration', 'open']);
  const admin = await register(server.url, 'admin');
  const bob = await register(server.url, 'bob');
  // Four streams over four connections: the cluster hands them to both processes.
  const streams: EventStream[] = [];
  for (let i = 0; i < 4; i++) streams.push(await openReady(server.url, { token: bob.token }));
  t.after(() => streams.forEach((stream) => stream.close()));
  assert.equal((await call(server.url, 'DELETE', `/users/${bob.userId}`, { token: admin.token })).status, 204);
  for (let i = 0; i < 6; i++) assert.equal((await call(server.url, 'GET', '/session', { token: bob.token })).status, 401);
  // The process that erased ends its streams at once, the other at its next session check (within 15 s).
  await Promise.all(streams.map((stream) => stream.ended));
  const again = await call(server.url, 'POST', '/users', { json: { login: 'bob', password: 'another long password' } });
  assert.equal(again.status, 201, again.text);
});
