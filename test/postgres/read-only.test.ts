// A PostgreSQL database that refuses writes (default_transaction_read_only, as on a standby): exit 2 at start; while
// running, 503 ERR_DATABASE_READ_ONLY with Retry-After, /health says it, and both recover once writes are allowed again.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startServer } from '../../src/index.ts';
import { createChat } from '../http/chat-fixtures.ts';
import { call, registerAndLogIn, type TestResponse } from '../http/client.ts';
import { createTestDatabase, ensureTestCluster } from './test-database.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** Runs one statement as the cluster's administrator. */
async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: await ensureTestCluster() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Makes the database read-only (or writable) for new sessions, and ends the sessions it has so that the pool opens new ones. */
async function setReadOnly(url: string, on: boolean): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await admin(`ALTER DATABASE ${name} SET default_transaction_read_only = ${on ? 'on' : 'off'}`);
  await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
}

test('a read-only PostgreSQL database at start is exit 2 with one line', async (t) => {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  await setReadOnly(database.url, true);
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0', '--quiet', '--db', database.url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 2, stderr);
  assert.equal(stderr, `chat-server: cannot open the database ${database.url.replace(/\/$/, '')}: the database is read-only (a standby, or default_transaction_read_only): the server must write\n`);
});

test('a PostgreSQL database turning read-only while the server runs: 503 ERR_DATABASE_READ_ONLY, /health says it, both recover', { timeout: 60_000 }, async (t) => {
  const database = await createTestDatabase();
  t.after(() => database.drop());
  const server = await startServer({ db: database.url, scryptN: 1024, writeRate: 0, registerRate: 0, registration: 'open', quiet: true });
  t.after(() => server.close());
  const ann = await registerAndLogIn(server);
  const chat = await createChat(server, ann, { title: 'Soon read-only' });
  const post = () => call(server, 'POST', `/chats/${chat.id}/messages`, { token: ann.token, json: { data: { text: 'written?' } } });
  /** Asks until an answer passes `done`: the first ones may meet a connection the administrator just ended (503 unavailable). */
  const until = async (ask: () => Promise<TestResponse>, done: (res: TestResponse) => boolean): Promise<TestResponse> => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const res = await ask();
      if (done(res)) return res;
      assert.ok(res.status === 503 && res.body.code === 'ERR_DATABASE_UNAVAILABLE', `only a cut connection comes first: ${res.status} ${res.text}`);
    }
    throw new Error('no such answer in 50 attempts');
  };

  await setReadOnly(database.url, true);
  const refused = await until(post, (res) => res.body?.code === 'ERR_DATABASE_READ_ONLY');
  assert.equal(refused.status, 503);
  assert.equal(refused.headers['retry-after'], '30');
  assert.deepEqual(refused.body, { type: 'https://chat-api.invalid/problems/database-read-only', title: 'Database read-only', status: 503, detail: 'Database read-only', code: 'ERR_DATABASE_READ_ONLY' });
  const health = await call(server, 'GET', '/health');
  assert.equal(health.status, 503);
  assert.equal(health.headers['retry-after'], '30');
  assert.equal(health.body.code, 'ERR_DATABASE_READ_ONLY');
  assert.equal((await call(server, 'GET', `/chats/${chat.id}`, { token: ann.token })).status, 200, 'reads go on');

  await setReadOnly(database.url, false);
  const back = await until(() => call(server, 'GET', '/health'), (res) => res.status === 200);
  assert.deepEqual(back.body, { status: 'ok' });
  assert.equal((await post()).status, 201);
});
