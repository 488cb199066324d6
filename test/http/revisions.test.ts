// Edit history over HTTP (docs/protocol.md §10.3): editedAt on messages, GET …/revisions oldest first, the last one current.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, withServer, TestClock } from './client.ts';
import { assertFieldError, createChat, postMessage, threeUsers } from './chat-fixtures.ts';

test('every change of the text is a revision; the same text and a new replyTo are not', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const { alice, bob, carol } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Edits', members: [bob.userId] });
  const first = await postMessage(server, alice, chat.id, { text: 'first' });
  const posted = new Date(clock.time).toISOString();
  const message = await postMessage(server, alice, chat.id, { text: 'helo' });
  assert.equal(message.editedAt, null);
  const path = `/chats/${chat.id}/messages/${message.id}`;
  const revisions = async (prefix = path) => {
    const res = await call(server, 'GET', `${prefix}/revisions`, { token: bob.token });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  assert.deepEqual(await revisions(), { data: [{ id: '1', text: 'helo', createdAt: posted }], meta: { total: 1, limit: 20, offset: 0 } });

  clock.advance(1000);
  const edited = new Date(clock.time).toISOString();
  const patched = await call(server, 'PATCH', path, { token: alice.token, json: { data: { text: 'hello' } } });
  assert.equal(patched.body.data.editedAt, edited);
  clock.advance(1000);
  // PUT with the same text, and a change of replyTo alone, are not edits.
  assert.equal((await call(server, 'PUT', path, { token: alice.token, json: { data: { text: 'hello' } } })).body.data.editedAt, edited);
  const replied = await call(server, 'PATCH', path, { token: alice.token, json: { data: { replyTo: first.id } } });
  assert.equal(replied.body.data.editedAt, edited);
  assert.equal(replied.body.data.updatedAt, new Date(clock.time).toISOString());
  clock.advance(1000);
  const again = new Date(clock.time).toISOString();
  assert.equal((await call(server, 'PUT', path, { token: alice.token, json: { data: { text: 'hello, world', replyTo: first.id } } })).body.data.editedAt, again);

  const expected = [
    { id: '1', text: 'helo', createdAt: posted },
    { id: '2', text: 'hello', createdAt: edited },
    { id: '3', text: 'hello, world', createdAt: again },
  ];
  assert.deepEqual((await revisions()).data, expected);
  assert.deepEqual(await revisions(`/messages/${message.id}`), await revisions());
  assert.equal((await call(server, 'GET', path, { token: bob.token })).body.data.text, expected.at(-1)!.text, 'the last is the current text');
  assert.deepEqual((await revisions()).meta, { total: 3, limit: 20, offset: 0 });
  const query = async (q: string) => (await call(server, 'GET', `${path}/revisions?${q}`, { token: bob.token })).body.data;
  assert.deepEqual(await query('sort=-id'), [...expected].reverse());
  assert.deepEqual(await query('id=2'), [expected[1]]);
  assert.deepEqual(await query('filter=text|like|hello%25'), [expected[1], expected[2]]);
  assert.deepEqual(await query('limit=1&offset=2'), [expected[2]]);
  assertFieldError(await call(server, 'GET', `${path}/revisions?id=two`, { token: bob.token }), 'id');
  // Each revision is addressable, under both addresses of the message.
  for (const prefix of [path, `/messages/${message.id}`]) {
    const one = await call(server, 'GET', `${prefix}/revisions/2`, { token: bob.token });
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, { data: expected[1] });
    for (const missing of ['4', '0', '01', 'two']) assert.equal((await call(server, 'GET', `${prefix}/revisions/${missing}`, { token: bob.token })).status, 404, missing);
  }
  // Edited messages can be found by editedAt.
  const history = await call(server, 'GET', `/chats/${chat.id}/messages?editedAt=>2000-01-01`, { token: bob.token });
  assert.deepEqual(history.body.data.map((m: { id: string }) => m.id), [message.id]);
  assert.equal((await call(server, 'GET', `${path}/revisions`, { token: carol.token })).status, 404);
  assert.equal((await call(server, 'GET', `/messages/${message.id}/revisions`, { token: carol.token })).status, 404);
});

test('revision ids count past 9 in number order, and a deleted message takes its history with it', async (t) => {
  const server = await withServer(t);
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Many edits' });
  const message = await postMessage(server, alice, chat.id, { text: 'v1' });
  const path = `/chats/${chat.id}/messages/${message.id}`;
  for (let v = 2; v <= 12; v += 1) assert.equal((await call(server, 'PATCH', path, { token: alice.token, json: { data: { text: `v${v}` } } })).status, 200);
  const all = (await call(server, 'GET', `${path}/revisions?limit=100`, { token: alice.token })).body.data;
  assert.deepEqual(all.map((r: { id: string; text: string }) => `${r.id}:${r.text}`), Array.from({ length: 12 }, (_, i) => `${i + 1}:v${i + 1}`));
  const top = (await call(server, 'GET', `${path}/revisions?sort[id]=DESC&limit=2`, { token: alice.token })).body.data;
  assert.deepEqual(top.map((r: { id: string }) => r.id), ['12', '11']);
  assert.equal((await call(server, 'DELETE', path, { token: alice.token })).status, 204);
  assert.equal((await call(server, 'GET', `${path}/revisions`, { token: alice.token })).status, 404);
});
