// mentionCount is kept by the backend like unreadCount (docs/protocol.md §14.2): after any sequence of posts and edits
// that add and remove mentions, deletes, marker moves and re-joins, each member's count equals a recount of what GET
// answers (the unread messages of others that mention them). Over HTTP, so it runs on SQLite and on PostgreSQL.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { call, withServer, type LoggedIn } from './client.ts';
import { createChat, threeUsers, type Message } from './chat-fixtures.ts';

type Op =
  | { kind: 'post'; author: number; mentions: number[] }
  | { kind: 'edit'; pick: number; mentions: number[] }
  | { kind: 'delete'; pick: number }
  | { kind: 'mark'; user: number; pick: number | null }
  | { kind: 'leave-and-join'; user: number };

const mentions = fc.uniqueArray(fc.nat(2), { maxLength: 3 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('post' as const), author: fc.nat(2), mentions }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(40), mentions }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(40) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('mark' as const), user: fc.nat(2), pick: fc.option(fc.nat(40)) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('leave-and-join' as const), user: fc.integer({ min: 1, max: 2 }) }) },
);

test('after random posts, edits adding and removing mentions, deletes, marker moves and re-joins, mentionCount is the recount', { timeout: 300_000 }, async (t) => {
  await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
    const server = await withServer(t);
    const { alice, bob, carol } = await threeUsers(server);
    const users: LoggedIn[] = [alice, bob, carol];
    const chat = await createChat(server, alice, { title: 'Property', members: [bob.userId, carol.userId] });
    const textOf = (who: number[]): string => `note ${who.map((index) => `@${users[index]!.login}`).join(' ')}`;
    const history = async (): Promise<Message[]> => (await call(server, 'GET', `/chats/${chat.id}/messages?limit=100`, { token: alice.token })).body.data;
    for (const step of ops) {
      const present = await history();
      const picked = (pick: number): Message | undefined => present[pick % Math.max(1, present.length)];
      switch (step.kind) {
        case 'post':
          assert.equal((await call(server, 'POST', `/chats/${chat.id}/messages`, { token: users[step.author]!.token, json: { data: { text: textOf(step.mentions) } } })).status, 201);
          break;
        case 'edit': {
          const message = picked(step.pick);
          const author = users.find((user) => user.userId === message?.authorId);
          if (message && author) {
            const res = await call(server, 'PATCH', `/chats/${chat.id}/messages/${message.id}`, { token: author.token, json: { data: { text: `${textOf(step.mentions)}.` } } });
            assert.equal(res.status, 200, res.text);
          }
          break;
        }
        case 'delete': {
          const message = picked(step.pick);
          if (message) assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/messages/${message.id}`, { token: alice.token })).status, 204);
          break;
        }
        case 'mark': {
          const lastReadId = step.pick === null ? null : picked(step.pick)?.id ?? null;
          assert.equal((await call(server, 'PUT', `/chats/${chat.id}/read`, { token: users[step.user]!.token, json: { data: { lastReadId } } })).status, 200);
          break;
        }
        case 'leave-and-join':
          assert.equal((await call(server, 'DELETE', `/chats/${chat.id}/members/${users[step.user]!.userId}`, { token: alice.token })).status, 204);
          assert.equal((await call(server, 'PUT', `/chats/${chat.id}/members/${users[step.user]!.userId}`, { token: alice.token })).status, 204);
          break;
      }
      const after = await history();
      for (const user of users) {
        const read = (await call(server, 'GET', `/chats/${chat.id}`, { token: user.token })).body.data;
        const unread = after.filter((message) => message.authorId !== user.userId && (read.lastReadId === null || message.id > read.lastReadId));
        const recount = unread.filter((message) => message.mentions.includes(user.userId)).length;
        assert.equal(read.mentionCount, recount, `${user.login} after ${JSON.stringify(step)}`);
        assert.equal(read.unreadCount, unread.length);
      }
    }
  }), { numRuns: 25 });
});
