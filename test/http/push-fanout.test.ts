// A fan-out of pushes (docs/push.md, "What runs where"): the encryption runs on the crypto pool's thread; a thread that
// dies in the middle of a fan-out is replaced, and every subscription is still pushed exactly once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChat, postMessage } from './chat-fixtures.ts';
import { call, registerAndLogIn } from './client.ts';
import { setUp, subscribe, until } from './push-fixtures.ts';

const MEMBERS = 12;

test(`a crypto thread ended during a fan-out to ${MEMBERS}: replaced, and each subscription pushed once`, { timeout: 60_000 }, async (t) => {
  const { server, push } = await setUp(t);
  const { pool } = server.app.services.push;
  const owner = await registerAndLogIn(server, 'owner');
  const members = [];
  for (let n = 0; n < MEMBERS; n++) members.push(await registerAndLogIn(server, `member${n}`));
  for (const member of members) await subscribe(server, push, member);
  const chat = await createChat(server, owner, { title: 'Everyone', members: members.map((member) => member.userId) });
  // A test push to the owner starts the thread before the fan-out.
  await subscribe(server, push, owner);
  assert.equal((await call(server, 'POST', '/push/test', { token: owner.token })).status, 204);
  await push.waitFor(1);
  const [first] = pool.threadIds;
  assert.equal(pool.runsOnEventLoop, false);
  // The thread ends right after it was handed the fan-out's third job, holding it.
  const run = pool.run.bind(pool);
  let jobs = 0;
  pool.run = (job) => {
    const answer = run(job);
    if (++jobs === 3) void pool.endThread(first!);
    return answer;
  };
  await postMessage(server, owner, chat.id, { text: '@all the building is closing early' });
  await push.waitFor(1 + MEMBERS);
  await until(() => pool.threadIds.length === 1 && pool.threadIds[0] !== first, 'a new thread');
  await server.app.services.outbound.loop.idle();
  assert.deepEqual(push.failures, []);
  const names = push.received.slice(1).map((got) => got.name).sort();
  assert.deepEqual(names, members.map((member) => member.login).sort(), 'each member once, the owner (the author) never');
  assert.ok(push.received.slice(1).every((got) => got.notice.text === '@all the building is closing early'));
});
