// Crash safety: SIGKILL the real server at random moments while clients post messages, restart it on the same
// file; every acknowledged (201) message is still there and the database passes PRAGMA integrity_check.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { spawnServer, type ServerProcess } from './server-child.ts';

const SEED = Number(process.env['CRASH_SEED'] ?? 7_919);
const KILLS = 12;
const WRITERS = 8;
/** A round ends with SIGKILL after this many acknowledgments at most (at least 1), drawn from the seed. */
const MAX_ACKS_BEFORE_KILL = 120;

/** mulberry32: a small seeded PRNG, so a failing run can be replayed with CRASH_SEED. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Answer {
  status: number;
  body: any;
}

function call(url: string, method: string, body: unknown, token?: string, agent?: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = {};
    if (payload) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(payload.length) });
    if (token) headers['authorization'] = `Bearer ${token}`;
    const req = request(url, { method, headers, agent: agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const serverArgs = (db: string): string[] => ['--db', db, '--scrypt-n', '1024', '--quiet'];

test(`every acknowledged message survives ${KILLS} SIGKILLs, and the database stays intact`, { timeout: 90_000 }, async (t) => {
  t.diagnostic(`seed ${SEED} (replay with CRASH_SEED=${SEED})`);
  const random = seededRandom(SEED);
  const dir = mkdtempSync(join(tmpdir(), 'crash-'));
  const db = join(dir, 'chat.db');
  let server: ServerProcess | undefined;
  t.after(async () => {
    await server?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  server = await spawnServer(serverArgs(db));
  const credentials = { login: 'crasher', password: 'a long enough password' };
  assert.equal((await call(`${server.url}/users`, 'POST', credentials)).status, 201);
  const { token } = (await call(`${server.url}/session`, 'POST', credentials)).body;
  const chatId: string = (await call(`${server.url}/chats`, 'POST', { data: { title: 'crash test' } }, token)).body.data.id;

  const acknowledged = new Map<string, string>();
  const unexpected: string[] = [];
  for (let round = 0; round < KILLS; round += 1) {
    if (round > 0) server = await spawnServer(serverArgs(db));
    const running: ServerProcess = server;
    const killAfter = 1 + Math.floor(random() * MAX_ACKS_BEFORE_KILL);
    const agent = new Agent({ keepAlive: true, maxSockets: WRITERS });
    let acksThisRound = 0;
    let killed = false;
    const writer = async (writerId: number): Promise<void> => {
      for (let n = 0; !killed; n += 1) {
        const text = `round ${round} writer ${writerId} message ${n}`;
        let answer: Answer;
        try {
          answer = await call(`${running.url}/chats/${chatId}/messages`, 'POST', { data: { text } }, token, agent);
        } catch (error) {
          // After the kill, requests in flight fail: they were never acknowledged, so nothing is owed.
          if (!killed) unexpected.push(`round ${round}: ${(error as Error).message} before the kill`);
          return;
        }
        if (answer.status !== 201) {
          unexpected.push(`round ${round}: ${answer.status} ${JSON.stringify(answer.body)}`);
          return;
        }
        acknowledged.set(answer.body.data.id, text);
        acksThisRound += 1;
        if (acksThisRound === killAfter) {
          killed = true;
          // SIGKILL while the other writers' requests are in flight: no chance to finish or flush anything.
          running.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, id) => writer(id)));
    await running.exited;
    agent.destroy();
    assert.equal(running.child.signalCode, 'SIGKILL', `round ${round}: the server died of the kill, not of something else`);
  }
  assert.deepEqual(unexpected, []);
  t.diagnostic(`${KILLS} kills, ${acknowledged.size} acknowledged messages`);

  // Straight after the last kill, with its WAL still beside it: the file is intact and holds every acknowledged row.
  const file = new Database(db, { readonly: true });
  try {
    assert.equal(file.pragma('integrity_check', { simple: true }), 'ok');
    const stored = new Map((file.prepare('SELECT id, text FROM messages WHERE chat_id = ?').all(chatId) as { id: string; text: string }[])
      .map((row) => [row.id, row.text]));
    const lost = [...acknowledged].filter(([id, text]) => stored.get(id) !== text);
    assert.deepEqual(lost, [], `${lost.length} acknowledged messages lost`);
  } finally {
    file.close();
  }

  // And the restarted server serves them all, then shuts down cleanly on SIGTERM.
  server = await spawnServer(serverArgs(db));
  const served = new Map<string, string>();
  for (let after = ''; ;) {
    const page = await call(`${server.url}/chats/${chatId}/messages?limit=100${after ? `&after=${after}` : ''}`, 'GET', undefined, token);
    assert.equal(page.status, 200);
    for (const message of page.body.data as { id: string; text: string }[]) served.set(message.id, message.text);
    if (page.body.data.length < 100) break;
    after = page.body.data.at(-1).id;
  }
  const missing = [...acknowledged].filter(([id, text]) => served.get(id) !== text);
  assert.deepEqual(missing, [], `${missing.length} acknowledged messages not served after restart`);

  // The event log went down with every kill too: each acknowledged message has its message.created exactly
  // once, in id order (the event commits with its message, so no message exists without its event).
  const created: string[] = [];
  let lastId = 0;
  for (let after = '0'; ;) {
    const page = await call(`${server.url}/events?after=${after}&wait=0`, 'GET', undefined, token);
    assert.equal(page.status, 200);
    for (const event of page.body.data as { id: string; type: string; data: { id: string } }[]) {
      assert.ok(Number(event.id) > lastId, `event ${event.id} after ${lastId}`);
      lastId = Number(event.id);
      if (event.type === 'message.created') created.push(event.data.id);
    }
    if (page.body.data.length === 0) break;
    after = page.body.meta.lastEventId;
  }
  assert.equal(new Set(created).size, created.length, 'no message.created twice');
  const withoutEvent = [...acknowledged.keys()].filter((id) => !created.includes(id));
  assert.deepEqual(withoutEvent, [], `${withoutEvent.length} acknowledged messages have no event`);
  assert.deepEqual([...served.keys()].filter((id) => !created.includes(id)), [], 'every stored message has its event');
  await server.kill('SIGTERM');
  assert.equal(server.child.exitCode, 0);
  const closed = new Database(db, { readonly: true });
  t.after(() => closed.close());
  assert.equal(closed.pragma('integrity_check', { simple: true }), 'ok');
});
