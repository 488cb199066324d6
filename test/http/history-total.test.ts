// meta.total of a chat's history comes from a count kept by triggers when nothing is filtered: it must follow every write.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, registerAndLogIn, withServer } from './client.ts';

test('the total of an unfiltered history follows posts, deletions and clearing, and agrees with a filtered count', async (t) => {
  const server = await withServer(t);
  const owner = await registerAndLogIn(server);
  const chat = (await call(server, 'POST', '/chats', { token: owner.token, json: { data: { title: 'counted' } } })).body.data;
  const path = `/chats/${chat.id}/messages`;
  const total = async (query = '') => (await call(server, 'GET', `${path}?limit=1${query}`, { token: owner.token })).body.meta.total;
  assert.equal(await total(), 0);
  const ids: string[] = [];
  for (let i = 0; i < 5; i += 1) ids.push((await call(server, 'POST', path, { token: owner.token, json: { data: { text: `m${i}` } } })).body.data.id);
  // A filter that matches everything takes the count(*) path; both must agree.
  assert.deepEqual([await total(), await total('&filter=text|like|m%25')], [5, 5]);
  assert.equal((await call(server, 'DELETE', `${path}/${ids[1]}`, { token: owner.token })).status, 204);
  assert.deepEqual([await total(), await total('&filter=text|like|m%25')], [4, 4]);
  const other = (await call(server, 'POST', '/chats', { token: owner.token, json: { data: { title: 'other' } } })).body.data;
  await call(server, 'POST', `/chats/${other.id}/messages`, { token: owner.token, json: { data: { text: 'elsewhere' } } });
  assert.equal(await total(), 4, 'another chat\'s messages do not count');
  assert.equal((await call(server, 'DELETE', path, { token: owner.token })).status, 204);
  assert.equal(await total(), 0);
  assert.equal((await call(server, 'GET', `/chats/${other.id}/messages`, { token: owner.token })).body.meta.total, 1);
});
