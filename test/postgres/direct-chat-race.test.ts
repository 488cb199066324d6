// One direct chat per pair across PostgreSQL servers (docs/protocol.md §14.1): concurrent "open a DM" requests to two
// servers on one database make one chat. The second insert of the pair waits for the first to commit, breaks the
// unique key in its savepoint, and answers the chat the first made.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer, type RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn } from '../http/client.ts';
import { createTestDatabase } from './test-database.ts';

test('two servers, 40 concurrent requests to open the DM of alice and bob: one 201, 39 times 200 with the same chat', { timeout: 60_000 }, async (t) => {
  const database = await createTestDatabase();
  const start = () => startServer({ db: database.url, scryptN: 1024, writeRate: 0, registerRate: 0, registration: 'open' });
  const servers: RunningServer[] = [await start(), await start()];
  t.after(async () => {
    for (const server of servers) await server.close();
    await database.drop();
  });
  const alice = await registerAndLogIn(servers[0]!, 'alice');
  const bob = await registerAndLogIn(servers[0]!, 'bob');
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => {
    const [caller, other] = i % 2 === 0 ? [alice, bob] : [bob, alice];
    return call(servers[i % 2]!, 'POST', '/chats', { token: caller.token, json: { data: { kind: 'direct', members: [other.userId] } } });
  }));
  assert.deepEqual(answers.map((res) => res.status).sort(), [...Array(39).fill(200), 201]);
  assert.equal(new Set(answers.map((res) => res.body.data.id)).size, 1);
  const chats = await call(servers[1]!, 'GET', '/chats?kind=direct', { token: bob.token });
  assert.equal(chats.body.meta.total, 1);
});
