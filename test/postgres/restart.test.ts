// PostgreSQL going away under load: requests fail with 503, Retry-After and a problem document (never a 500 or a
// stack), and the server recovers by itself once the database is back. A cluster of its own: it is stopped here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer } from '../../src/index.ts';
import { createChat } from '../http/chat-fixtures.ts';
import { call, registerAndLogIn, type TestResponse } from '../http/client.ts';
import { openReady } from '../http/event-stream.ts';
import { prepareTemplate, urlWithDatabase } from './test-database.ts';
import { startThrowawayPostgres } from './throwaway-postgres.ts';

test('a PostgreSQL stop under load answers 503 with Retry-After, and the server recovers when it is back', { timeout: 120_000 }, async (t) => {
  const cluster = await startThrowawayPostgres();
  t.after(() => cluster.stop());
  await prepareTemplate(cluster.url, 'chat');
  const server = await startServer({ db: urlWithDatabase(cluster.url, 'chat'), scryptN: 1024, writeRate: 0, registerRate: 0, registration: 'open', quiet: true });
  t.after(() => server.close());
  const ann = await registerAndLogIn(server);
  const chat = await createChat(server, ann, { title: 'Steady' });

  const answers: { phase: string; res: TestResponse }[] = [];
  let phase = 'up';
  let running = true;
  // Load: readers and writers without pause, each request as soon as the previous answered.
  const loops = Array.from({ length: 6 }, async (_, i) => {
    while (running) {
      const res = i % 2 === 0
        ? await call(server, 'GET', `/chats/${chat.id}/messages?limit=5`, { token: ann.token })
        : await call(server, 'POST', `/chats/${chat.id}/messages`, { token: ann.token, json: { data: { text: 'still here?' } } });
      answers.push({ phase, res });
    }
  });
  /** Waits (on answers, not on time) until one answer of this phase satisfies ok. */
  const until = async (what: string, ok: (res: TestResponse) => boolean): Promise<void> => {
    for (let seen = 0; ; ) {
      const found = answers.slice(seen).some((answer) => answer.phase === phase && ok(answer.res));
      if (found) return;
      seen = answers.length;
      if (!running) throw new Error(`load stopped before ${what}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  try {
    await until('a first answer', (res) => res.status === 200);
    phase = 'down';
    cluster.pause();
    await until('a 503 while PostgreSQL is down', (res) => res.status === 503);
    phase = 'back';
    cluster.start();
    await until('a read after the restart', (res) => res.status === 200);
    await until('a write after the restart', (res) => res.status === 201);
  } finally {
    running = false;
    await Promise.all(loops);
  }
  const statuses = new Set(answers.map((answer) => answer.res.status));
  assert.deepEqual([...statuses].filter((status) => ![200, 201, 503].includes(status)), [], 'no other status, never a 500');
  for (const { res } of answers.filter((answer) => answer.res.status === 503)) {
    assert.equal(res.headers['content-type'], 'application/problem+json');
    assert.equal(res.headers['retry-after'], '2');
    assert.equal(res.body.code, 'ERR_DATABASE_UNAVAILABLE');
    assert.doesNotMatch(res.text, /at |ECONNREFUSED|terminat/, 'no stack or driver message');
  }
  // Whatever was answered 201 is there; the session and the chat survived.
  const history = await call(server, 'GET', `/chats/${chat.id}/messages?limit=1`, { token: ann.token });
  assert.equal(history.status, 200);
  assert.equal(history.body.meta.total, answers.filter((answer) => answer.res.status === 201).length);
});

test('after a PostgreSQL restart the LISTEN connection is back: an event posted on one server reaches the other\'s stream', { timeout: 120_000 }, async (t) => {
  const cluster = await startThrowawayPostgres();
  t.after(() => cluster.stop());
  await prepareTemplate(cluster.url, 'chat');
  // The periodic tail would take ten minutes here: within the test's bounds only a notification can deliver.
  const start = () => startServer({ db: urlWithDatabase(cluster.url, 'chat'), scryptN: 1024, writeRate: 0, registerRate: 0, registration: 'open', quiet: true, eventTimings: { pollMs: 600_000 } });
  const a = await start();
  t.after(() => a.close());
  const b = await start();
  t.after(() => b.close());
  const ann = await registerAndLogIn(a);
  const bob = await registerAndLogIn(a);
  const chat = await createChat(a, ann, { title: 'Restarted', members: [bob.userId] });
  const stream = await openReady(b, { token: bob.token });
  t.after(() => stream.close());

  cluster.pause();
  cluster.start();
  /** Posts on A, asking again while its pool still hands out connections the restart cut (503). */
  const post = async (text: string): Promise<string> => {
    for (;;) {
      const res = await call(a, 'POST', `/chats/${chat.id}/messages`, { token: ann.token, json: { data: { text } } });
      if (res.status === 201) return res.body.data.id;
      assert.equal(res.status, 503, res.text);
    }
  };
  const arrived = (id: string) => (s: typeof stream) => s.logEvents.some((event) => event.type === 'message.created' && event.json.data.id === id);
  // The first may come with the catch-up read B makes when its LISTEN connection is back; the second is posted after
  // that, so only a live LISTEN can bring it.
  const first = await post('after the restart');
  await stream.until(arrived(first), 'the first message from A after the restart', 30_000);
  const second = await post('and once more');
  await stream.until(arrived(second), 'the second message from A, by NOTIFY', 30_000);
  assert.deepEqual(stream.logEvents.filter((event) => event.type === 'message.created').map((event) => event.json.data.id), [first, second]);
});
