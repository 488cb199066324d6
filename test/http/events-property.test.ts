// Property: whatever the interleaving of writes, disconnects, resumes and long-polls, a client that always resumes
// from the last id it received sees every event of its chats exactly once, in order, and nothing of other chats.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { call, startTestServer, registerAndLogIn } from './client.ts';
import { createChat, postMessage } from './chat-fixtures.ts';
import { openReady, type EventStream } from './event-stream.ts';

type Action =
  | { kind: 'post'; count: number; foreign: boolean }
  | { kind: 'reconnect' }
  | { kind: 'poll' };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('post' as const), count: fc.integer({ min: 1, max: 6 }), foreign: fc.boolean() }),
  fc.constant({ kind: 'reconnect' as const }),
  fc.constant({ kind: 'poll' as const }),
);

test('random interleavings of writes and reconnects never lose, duplicate or reorder an event', { timeout: 240_000 }, async () => {
  await fc.assert(fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 25 }), async (actions) => {
    const server = await startTestServer();
    try {
      const [alice, bob, carol] = [await registerAndLogIn(server), await registerAndLogIn(server), await registerAndLogIn(server)];
      const shared = await createChat(server, alice, { title: 'Shared', members: [bob.userId] });
      const foreign = await createChat(server, carol, { title: 'Not alice\'s' });
      // Resuming from 0 first replays the creation of the shared chat; carol's chat is never seen.
      const expected: string[] = [`chat.created ${shared.id}`];
      const received: string[] = [];
      let lastId = '0';
      const take = (stream: EventStream, from: number): number => {
        const events = stream.logEvents.slice(from);
        for (const event of events) {
          received.push(`${event.type} ${event.json.data.id}`);
          lastId = event.id!;
        }
        return from + events.length;
      };
      let stream = await openReady(server, { token: alice.token, lastEventId: lastId });
      let taken = take(stream, 0);
      for (const step of actions) {
        if (step.kind === 'post') {
          for (let i = 0; i < step.count; i++) {
            const message = step.foreign
              ? await postMessage(server, carol, foreign.id, { text: `foreign ${i}` })
              : await postMessage(server, bob, shared.id, { text: `shared ${i}` });
            if (!step.foreign) expected.push(`message.created ${message.id}`);
          }
        } else if (step.kind === 'reconnect') {
          // Whatever was still on its way is dropped with the connection: the resume brings it back.
          taken = take(stream, taken);
          stream.close();
          stream = await openReady(server, { token: alice.token, lastEventId: lastId });
          taken = take(stream, 0);
        } else {
          taken = take(stream, taken);
          stream.close();
          const poll = await call(server, 'GET', `/events?after=${lastId}&wait=0`, { token: alice.token });
          assert.equal(poll.status, 200);
          for (const event of poll.body.data) received.push(`${event.type} ${event.data.id}`);
          lastId = poll.body.meta.lastEventId;
          stream = await openReady(server, { token: alice.token, lastEventId: lastId });
          taken = take(stream, 0);
        }
      }
      // A last resume: everything before its ready has been replayed.
      taken = take(stream, taken);
      stream.close();
      const final = await openReady(server, { token: alice.token, lastEventId: lastId });
      take(final, 0);
      final.close();
      assert.deepEqual(received, expected);
    } finally {
      await server.close();
    }
  }), { numRuns: 30, seed: Number(process.env['EVENTS_SEED'] ?? 4242) });
});
