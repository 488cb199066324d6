// Several servers on one PostgreSQL database (docs/protocol.md §12.2): shared sessions and limits, and every event on every
// server's streams exactly once, in id order, even while both servers write at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer } from '../../src/index.ts';
import { createChat, postMessage, type Chat } from '../http/chat-fixtures.ts';
import { call, registerAndLogIn, runSql } from '../http/client.ts';
import { openReady } from '../http/event-stream.ts';
import { createTestDatabase } from './test-database.ts';
import { twoServers } from './two-servers.ts';

test('a session made on one server works on the other, and ends on both', async (t) => {
  const [a, b] = await twoServers(t);
  const ann = await registerAndLogIn(a);
  const session = await call(b, 'GET', '/session', { token: ann.token });
  assert.equal(session.status, 200);
  assert.equal(session.body.userId, ann.userId);
  assert.equal((await call(b, 'DELETE', '/session', { token: ann.token })).status, 204);
  assert.equal((await call(a, 'GET', '/session', { token: ann.token })).status, 401);
});

test('failed logins count on every server: the limit is one limit', async (t) => {
  const [a, b] = await twoServers(t, { loginMaxFailures: 2 });
  await registerAndLogIn(a, 'target', 'correct horse battery');
  const wrong = { json: { login: 'target', password: 'wrong password!' } };
  assert.equal((await call(a, 'POST', '/session', wrong)).status, 401);
  assert.equal((await call(b, 'POST', '/session', wrong)).status, 401);
  const limited = await call(a, 'POST', '/session', { json: { login: 'target', password: 'correct horse battery' } });
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers['retry-after']) > 0);
});

test('an event posted on one server reaches a stream on the other through LISTEN/NOTIFY, not the periodic tail', async (t) => {
  // The tail would take a minute here: only the notification can deliver within the 2 s the stream waits.
  const [a, b] = await twoServers(t, { eventTimings: { pollMs: 60_000 } });
  const ann = await registerAndLogIn(a);
  const bob = await registerAndLogIn(a);
  const chat = await createChat(a, ann, { title: 'Across', members: [bob.userId] });
  const stream = await openReady(b, { token: bob.token });
  t.after(() => stream.close());
  const message = await postMessage(a, ann, chat.id, { text: 'from server A' });
  await stream.until((s) => s.logEvents.some((event) => event.type === 'message.created' && event.json.data.id === message.id), 'the message from A', 2000);
});

test('concurrent writers on two servers: each stream sees every event once, gap-free and in id order', { timeout: 120_000 }, async (t) => {
  const [a, b] = await twoServers(t);
  // Fault injection in this test's database only: a random pause between an event's id and its commit, so that
  // transactions would commit out of id order if nothing kept them in it (a reader would then skip an id for good).
  await runSql(a, `CREATE FUNCTION pause_after_append() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(random() * 0.02); RETURN NULL; END $$;
    CREATE TRIGGER pause_after_append AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION pause_after_append()`);
  const owner = await registerAndLogIn(a);
  const writers = [];
  for (let i = 0; i < 6; i++) writers.push(await registerAndLogIn(i % 2 === 0 ? a : b));
  // A chat per writer: posts to one chat queue behind its kept message count anyway; across chats only the event
  // log's own ordering keeps commits in id order.
  const chats: Chat[] = [];
  for (const writer of writers) chats.push(await createChat(a, writer, { title: 'Busy', members: [owner.userId] }));
  const streams = [await openReady(a, { token: owner.token }), await openReady(b, { token: owner.token })];
  t.after(() => streams.forEach((stream) => stream.close()));
  const from = Number(streams[0]!.events.find((event) => event.type === 'ready')!.id);
  // Every writer posts on its own server, all at once, several rounds.
  const posted: string[] = [];
  for (let round = 0; round < 10; round++) {
    const batch = await Promise.all(writers.flatMap((writer, i) => [0, 1, 2].map(() => postMessage(i % 2 === 0 ? a : b, writer, chats[i]!.id, { text: `round ${round}` }))));
    posted.push(...batch.map((message) => message.id));
  }
  // What the log holds after `from`, in id order: what every stream must show, exactly.
  const logged = (await runSql(a, `SELECT id, data FROM events WHERE id > ${from} AND type = 'message.created' ORDER BY id`))
    .map((row) => ({ id: String(row['id']), messageId: JSON.parse(String(row['data'])).id as string }));
  assert.deepEqual(logged.map((event) => event.messageId).sort(), [...posted].sort(), 'the log holds every message once');
  for (const stream of streams) {
    await stream.until((s) => s.logEvents.filter((event) => event.type === 'message.created').length >= posted.length, `${posted.length} messages`);
    const seen = stream.logEvents.filter((event) => event.type === 'message.created').map((event) => ({ id: event.id!, messageId: event.json.data.id as string }));
    assert.deepEqual(seen, logged, 'the stream is the log: no gap, no duplicate, in id order');
  }
});

test('a NOTIFY hint wakes the streams but is not passed on as this server\'s own commit (--workers relays only those)', async (t) => {
  const commits = { a: 0, b: 0 };
  const database = await createTestDatabase();
  const start = (name: 'a' | 'b') => startServer({ db: database.url, scryptN: 1024, writeRate: 0, registerRate: 0, registration: 'open', eventTimings: { pollMs: 60_000 }, onEventsCommitted: () => commits[name]++ });
  const a = await start('a');
  const b = await start('b');
  t.after(async () => {
    await a.close();
    await b.close();
    await database.drop();
  });
  const ann = await registerAndLogIn(a);
  const chat = await createChat(a, ann, { title: 'Relay' });
  const stream = await openReady(b, { token: ann.token });
  t.after(() => stream.close());
  const before = commits.a;
  const message = await postMessage(a, ann, chat.id, { text: 'from server A' });
  await stream.until((s) => s.logEvents.some((event) => event.type === 'message.created' && event.json.data.id === message.id), 'the message from A', 2000);
  assert.ok(commits.a > before, 'A passes on its own commit');
  assert.equal(commits.b, 0, 'B woke by NOTIFY and passed nothing on');
});
