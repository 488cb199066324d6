// --workers N on PostgreSQL: the primary migrates once, every worker has its own pool and LISTEN connection, and
// what one worker did every other sees (a session, an event on a stream); whichever worker answers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spawnServer } from '../fault/server-child.ts';
import { call } from '../http/client.ts';
import { openReady } from '../http/event-stream.ts';
import { createTestDatabase } from './test-database.ts';

async function logIn(base: string, login: string): Promise<{ token: string; userId: string }> {
  const registered = await call(base, 'POST', '/users', { json: { login, password: 'correct horse battery' } });
  assert.equal(registered.status, 201, registered.text);
  const session = await call(base, 'POST', '/session', { json: { login, password: 'correct horse battery' } });
  assert.equal(session.status, 201, session.text);
  return { token: session.body.token, userId: registered.body.id };
}

test('two workers on one PostgreSQL database serve one API: sessions and events are everyone\'s', { timeout: 60_000 }, async (t) => {
  const database = await createTestDatabase();
  const server = await spawnServer(['--db', database.url, '--workers', '2', '--scrypt-n', '1024', '--quiet']);
  t.after(async () => {
    await server.kill('SIGTERM');
    await database.drop();
  });
  const ann = await logIn(server.url, 'ann');
  const bob = await logIn(server.url, 'bob');
  const chat = (await call(server.url, 'POST', '/chats', { token: ann.token, json: { data: { title: 'Workers', members: [bob.userId] } } })).body.data;
  // Connections are handed to the workers in turn: these requests land on both.
  for (let i = 0; i < 4; i++) assert.equal((await call(server.url, 'GET', '/session', { token: bob.token })).status, 200);
  const stream = await openReady(server.url, { token: bob.token });
  t.after(() => stream.close());
  const posted: string[] = [];
  for (let i = 0; i < 4; i++) posted.push((await call(server.url, 'POST', `/chats/${chat.id}/messages`, { token: ann.token, json: { data: { text: `message ${i}` } } })).body.data.id);
  await stream.until((s) => s.logEvents.filter((event) => event.type === 'message.created').length === posted.length, 'every message', 5000);
  assert.deepEqual(stream.logEvents.filter((event) => event.type === 'message.created').map((event) => event.json.data.id), posted);
});
