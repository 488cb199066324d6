// Property (docs/events.md, "Who receives what" and "What a replay leaves out"): whatever the sequence of chat
// creations under chosen ids, deletions and re-creations, member changes, posts, edits, reactions, message deletes
// and clears, what a replay from 0 or from an id in the middle delivers to a user (SSE and long-poll, from a hub
// that holds the events in memory and from one that reads the store) is exactly what their live stream delivered
// after it, less the events a later delete removed from the log; and no replayed event holds a deleted text.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { startServer, type RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, runSql, startTestServer, type LoggedIn } from './client.ts';
import { openReady, type EventStream } from './event-stream.ts';

const USERS = 3;
const CHAT_IDS = 3;

type Step =
  | { kind: 'put'; by: number; chat: number; members: number[] }
  | { kind: 'deleteChat'; chat: number }
  | { kind: 'add'; chat: number; user: number }
  | { kind: 'remove'; chat: number; user: number; self: boolean }
  | { kind: 'post'; by: number; chat: number; replyTo: number | null }
  | { kind: 'edit'; message: number }
  | { kind: 'react'; message: number; by: number; remove: boolean }
  | { kind: 'deleteMessage'; message: number; byOwner: boolean }
  | { kind: 'clear'; chat: number };

const user = fc.integer({ min: 0, max: USERS - 1 });
const chat = fc.integer({ min: 0, max: CHAT_IDS - 1 });
const pick = fc.nat({ max: 50 });
const put = fc.record({ kind: fc.constant('put' as const), by: user, chat, members: fc.uniqueArray(user, { maxLength: USERS }) });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: put },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deleteChat' as const), chat }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('add' as const), chat, user }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), chat, user, self: fc.boolean() }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('post' as const), by: user, chat, replyTo: fc.option(pick, { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('edit' as const), message: pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('react' as const), message: pick, by: user, remove: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deleteMessage' as const), message: pick, byOwner: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const), chat }) },
);

interface LogEvent {
  id: number;
  type: string;
  chatId: string;
  data: Record<string, any>;
  json: string;
}

function eventsOf(stream: EventStream): LogEvent[] {
  return stream.logEvents.map((event) => ({ id: Number(event.id), type: event.json.type, chatId: event.json.chatId, data: event.json.data, json: event.data }));
}

/** The model of the purge, written from docs/events.md rather than from src/: the ids a later delete removed. */
function purgedIds(log: readonly LogEvent[]): Set<number> {
  const purged = new Set<number>();
  const about = (event: LogEvent): string | undefined => (event.type.startsWith('reaction.') ? event.data['messageId'] : event.type.startsWith('message.') ? event.data['id'] : undefined);
  const isMessageEvent = (event: LogEvent): boolean => event.type.startsWith('message.') || event.type.startsWith('reaction.') || event.type === 'messages.cleared';
  for (const deleting of log) {
    for (const earlier of log) {
      if (earlier.id >= deleting.id || earlier.chatId !== deleting.chatId) continue;
      if (deleting.type === 'chat.deleted'
        || (deleting.type === 'messages.cleared' && isMessageEvent(earlier))
        || (deleting.type === 'message.deleted' && isMessageEvent(earlier) && about(earlier) === deleting.data['id'])) purged.add(earlier.id);
    }
  }
  return purged;
}

/** Replays after an id as SSE and as long-poll, page after page. */
async function replays(server: RunningServer, who: LoggedIn, from: number): Promise<{ sse: LogEvent[]; poll: LogEvent[] }> {
  const stream = await openReady(server, { token: who.token, lastEventId: String(from) });
  stream.close();
  const poll: LogEvent[] = [];
  let after = String(from);
  for (;;) {
    const res = await call(server, 'GET', `/events?after=${after}&wait=0`, { token: who.token });
    assert.equal(res.status, 200, res.text);
    for (const event of res.body.data) poll.push({ id: Number(event.id), type: event.type, chatId: event.chatId, data: event.data, json: JSON.stringify(event) });
    if (res.body.data.length === 0) break;
    after = res.body.meta.lastEventId;
  }
  return { sse: eventsOf(stream), poll };
}

const summary = (events: readonly LogEvent[]): string[] => events.map((event) => `${event.id} ${event.type} ${event.chatId} ${JSON.stringify(event.data)}`);

/**
 * Runs the steps on `server`; then every user replays from 0 there (the hub holds the events in memory) and on
 * `second()`, a server started afterwards on the same database (its hub holds none: it reads the store).
 */
async function run(server: RunningServer, second: () => Promise<RunningServer>, steps: readonly Step[], cuts: readonly number[]): Promise<void> {
  const users: LoggedIn[] = [];
  for (let i = 0; i < USERS; i++) users.push(await registerAndLogIn(server));
  const live = await Promise.all(users.map((who) => openReady(server, { token: who.token })));
  try {
    const run = Math.random().toString(36).slice(2, 8);
    const chatIds = Array.from({ length: CHAT_IDS }, (_, i) => `c${i}-${run}`);
    const owners = new Map<number, number>();
    // Who is a member of each chat id now, as the answers told: posts are made by members, most of the time.
    const members = new Map<number, Set<number>>();
    // Every message posted: its chat, author, and every text it has had; deleted ones leave the list's use.
    const messages: { id: string; chat: number; author: number; texts: string[]; gone: boolean }[] = [];
    const deletedTexts = new Set<string>();
    let words = 0;
    const forget = (chatIndex: number): void => {
      for (const message of messages) {
        if (message.chat !== chatIndex || message.gone) continue;
        message.gone = true;
        for (const text of message.texts) deletedTexts.add(text);
      }
    };
    const alive = (index: number): (typeof messages)[number] | undefined => {
      const open = messages.filter((message) => !message.gone);
      return open.length === 0 ? undefined : open[index % open.length];
    };
    for (const s of steps) {
      if (s.kind === 'put') {
        const res = await call(server, 'PUT', `/chats/${chatIds[s.chat]}`, { token: users[s.by]!.token, json: { data: { title: `t${s.chat}`, members: s.members.map((i) => users[i]!.userId) } } });
        if (res.status === 201) owners.set(s.chat, s.by);
        if (res.status === 200 || res.status === 201) members.set(s.chat, new Set([owners.get(s.chat)!, ...s.members]));
      } else if (s.kind === 'deleteChat') {
        const owner = owners.get(s.chat);
        if (owner === undefined) continue;
        const res = await call(server, 'DELETE', `/chats/${chatIds[s.chat]}`, { token: users[owner]!.token });
        assert.equal(res.status, 204, res.text);
        owners.delete(s.chat);
        members.delete(s.chat);
        forget(s.chat);
      } else if (s.kind === 'add' || s.kind === 'remove') {
        const owner = owners.get(s.chat);
        if (owner === undefined) continue;
        const actor = s.kind === 'remove' && s.self ? s.user : owner;
        const res = await call(server, s.kind === 'add' ? 'PUT' : 'DELETE', `/chats/${chatIds[s.chat]}/members/${users[s.user]!.userId}`, { token: users[actor]!.token });
        if (res.status === 204 && s.kind === 'add') members.get(s.chat)!.add(s.user);
        if (res.status === 204 && s.kind === 'remove') members.get(s.chat)!.delete(s.user);
      } else if (s.kind === 'post') {
        const text = `w${++words}x`;
        const target = s.replyTo === null ? undefined : alive(s.replyTo);
        const replyTo = target && target.chat === s.chat ? target.id : null;
        // by counts among the members (a post by someone else is refused, and tells nothing).
        const inChat = [...members.get(s.chat) ?? []];
        const author = inChat.length === 0 ? s.by : inChat[s.by % inChat.length]!;
        const res = await call(server, 'POST', `/chats/${chatIds[s.chat]}/messages`, { token: users[author]!.token, json: { data: { text, replyTo } } });
        if (res.status === 201) messages.push({ id: res.body.data.id, chat: s.chat, author, texts: [text], gone: false });
      } else if (s.kind === 'edit') {
        const message = alive(s.message);
        if (!message) continue;
        const text = `w${++words}x`;
        const res = await call(server, 'PATCH', `/chats/${chatIds[message.chat]}/messages/${message.id}`, { token: users[message.author]!.token, json: { data: { text } } });
        if (res.status === 200) message.texts.push(text);
      } else if (s.kind === 'react') {
        const message = alive(s.message);
        if (!message) continue;
        await call(server, s.remove ? 'DELETE' : 'PUT', `/chats/${chatIds[message.chat]}/messages/${message.id}/reactions/${encodeURIComponent('👍')}`, { token: users[s.by]!.token });
      } else if (s.kind === 'deleteMessage') {
        const message = alive(s.message);
        if (!message) continue;
        const actor = s.byOwner ? owners.get(message.chat) ?? message.author : message.author;
        const res = await call(server, 'DELETE', `/chats/${chatIds[message.chat]}/messages/${message.id}`, { token: users[actor]!.token });
        if (res.status === 204) {
          message.gone = true;
          for (const text of message.texts) deletedTexts.add(text);
        }
      } else {
        const owner = owners.get(s.chat);
        if (owner === undefined) continue;
        const res = await call(server, 'DELETE', `/chats/${chatIds[s.chat]}/messages`, { token: users[owner]!.token });
        assert.equal(res.status, 204, res.text);
        forget(s.chat);
      }
    }
    // A chat of one's own at the end: once each live stream has its chat.created, it has every earlier event too.
    const sentinels: string[] = [];
    for (const who of users) sentinels.push((await call(server, 'POST', '/chats', { token: who.token, json: { data: { title: 'end' } } })).body.data.id);
    await Promise.all(live.map((stream, i) => stream.until((s) => s.logEvents.some((event) => event.json.type === 'chat.created' && event.json.chatId === sentinels[i]), 'the sentinel')));

    // Every event of a chat reaches its owner's stream: together the streams hold the whole log.
    const log = [...new Map(live.flatMap(eventsOf).map((event) => [event.id, event])).values()].sort((a, b) => a.id - b.id);
    const purged = purgedIds(log);
    const stored = (await runSql(server, 'SELECT id FROM events ORDER BY id')).map((row) => Number(row['id']));
    assert.deepEqual(stored, log.map((event) => event.id).filter((id) => !purged.has(id)), 'the log holds exactly the events no delete removed');
    const other = await second();
    // From 0, and from ids in the middle of the log: there the replay starts from who was a member at that id.
    const froms = [0, ...cuts.map((cut) => cut % log.at(-1)!.id)];
    for (const [where, target] of [['in memory', server], ['from the store', other]] as const) {
      for (let i = 0; i < USERS; i++) for (const from of froms) {
        const expected = eventsOf(live[i]!).filter((event) => event.id > from && !purged.has(event.id));
        const replayed = await replays(target, users[i]!, from);
        assert.deepEqual(summary(replayed.sse), summary(expected), `user ${i}, SSE after ${from}, ${where}`);
        assert.deepEqual(summary(replayed.poll), summary(expected), `user ${i}, long-poll after ${from}, ${where}`);
        for (const event of [...replayed.sse, ...replayed.poll]) {
          for (const text of deletedTexts) assert.ok(!event.json.includes(`"${text}"`), `user ${i} was sent deleted text ${text} in ${event.json} (${where})`);
        }
      }
    }
  } finally {
    for (const stream of live) stream.close();
  }
}

test('a replay from 0 or from any id is what the user received live after it, less what deletes removed, with no deleted text', { timeout: 240_000 }, async () => {
  // Two chat ids are created first (by whom, with whom, at random), so that most steps find a chat to act on.
  const steps = fc.tuple(put, put, fc.array(step, { minLength: 4, maxLength: 28, size: 'max' })).map(([first, second, rest]) => [first, { ...second, chat: (first.chat + 1) % CHAT_IDS }, ...rest]);
  const cuts = fc.array(fc.nat({ max: 1000 }), { minLength: 2, maxLength: 2 });
  await fc.assert(fc.asyncProperty(steps, cuts, async (steps, cuts) => {
    // SQLite: a file, so that a second server can open it; PostgreSQL: a database of its own (startTestServer).
    const dir = process.env['TEST_DATABASE_URL'] ? undefined : mkdtempSync(join(tmpdir(), 'chat-replay-'));
    const server = await startTestServer(dir === undefined ? {} : { db: join(dir, 'chat.db') });
    let other: RunningServer | undefined;
    try {
      await run(server, async () => (other = await startServer({ db: server.app.services.config.db, scryptN: 1024, writeRate: 0, registerRate: 0, registration: 'open' })), steps, cuts);
    } finally {
      await other?.close();
      await server.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    }
  }), { numRuns: Number(process.env['REPLAY_RUNS'] ?? 40), seed: Number(process.env['EVENTS_SEED'] ?? 4242) });
});
