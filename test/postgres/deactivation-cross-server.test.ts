// Two servers on one PostgreSQL database (docs/protocol.md §12.2, §13.4): a deactivation answered by one server closes
// the user's streams on the other within a second, through the NOTIFY that wakes its hub to read the session.ended.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer, type RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn } from '../http/client.ts';
import { openReady } from '../http/event-stream.ts';
import { createTestDatabase } from './test-database.ts';

test('a deactivation on server A closes the user\'s stream on server B through LISTEN/NOTIFY, not the periodic tail', async (t) => {
  const database = await createTestDatabase();
  // The tail would take a minute and the session check 15 s: only the notification can close it within a second.
  const start = () => startServer({ db: database.url, scryptN: 1024, writeRate: 0, registerRate: 0, registration: 'open', eventTimings: { pollMs: 60_000 } });
  const servers: RunningServer[] = [await start(), await start()];
  t.after(async () => {
    for (const server of servers) await server.close();
    await database.drop();
  });
  const [a, b] = servers as [RunningServer, RunningServer];
  const admin = await registerAndLogIn(a, 'admin');
  const bob = await registerAndLogIn(a, 'bob');
  const stream = await openReady(b, { token: bob.token });
  t.after(() => stream.close());
  const res = await call(a, 'PATCH', `/users/${bob.userId}`, { token: admin.token, json: { active: false } });
  const answeredAt = performance.now();
  assert.equal(res.status, 200, res.text);
  await Promise.race([stream.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('still open after 1 s')), 1000).unref())]);
  t.diagnostic(`B's stream closed ${(performance.now() - answeredAt).toFixed(1)} ms after A's answer`);
  assert.deepEqual(stream.logEvents.map((event) => event.type), ['user.updated', 'session.ended']);
  assert.equal((await call(b, 'GET', '/session', { token: bob.token })).status, 401);
});
