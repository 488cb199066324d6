// docs/protocol.md §9.1 to §9.3: the event, Server-Sent Events, resuming with Last-Event-ID or ?after.
import { PATHS } from '../../paths.ts';
import { expectEqual, expectHeader, expectMatch, expectProblem, expectStatus, expectTrue, ISO_MS } from '../expect.ts';
import type { KitContext, KitUser } from '../context.ts';
import type { KitStream, StreamEvent } from '../event-stream.ts';
import { check } from './define.ts';

/** The newest event id the user could see now: a long-poll without `after` and `wait=0` answers it at once (§9.8). */
export async function newestEventId(ctx: KitContext, user: KitUser): Promise<string> {
  const reply = await ctx.call('GET', `${PATHS.events}?wait=0`, { token: user.token });
  expectStatus(reply, 200);
  return reply.json.meta.lastEventId;
}

/** The events of one chat a stream received, before its `ready` when `beforeReady`. */
export function selectChatEvents(stream: KitStream, chatId: string, beforeReady = false): StreamEvent[] {
  const ready = stream.events.findIndex((event) => event.type === 'ready');
  const events = beforeReady && ready !== -1 ? stream.events.slice(0, ready) : stream.events;
  return events.filter((event) => event.json?.chatId === chatId);
}

/** A chat of alice's with three messages posted after `since`, the newest id before them. */
async function postThreeAfterMark(ctx: KitContext): Promise<{ alice: KitUser; chatId: string; since: string; ids: string[] }> {
  const alice = await ctx.user('alice');
  const chat = await ctx.chat(alice);
  const since = await newestEventId(ctx, alice);
  const ids = [];
  for (const text of ['one', 'two', 'three']) ids.push((await ctx.post(alice, chat.id, text)).id);
  return { alice, chatId: chat.id, since, ids };
}

const readCreatedIds = (events: StreamEvent[]): string[] => events.filter((event) => event.type === 'message.created').map((event) => event.json.data.id);

export const EVENTS_CHECKS = [
  check('events.sse.headers', '§9.2', 'GET /events with Accept: text/event-stream: Content-Type: text/event-stream, Cache-Control: no-cache, X-Accel-Buffering: no', async (ctx) => {
    const alice = await ctx.user('alice');
    const stream = await ctx.readyStream(alice.token);
    expectMatch(stream.headers['content-type'], /^text\/event-stream\b/, 'Content-Type');
    expectEqual(stream.headers['cache-control'], 'no-cache', 'Cache-Control');
    expectEqual(stream.headers['x-accel-buffering'], 'no', 'X-Accel-Buffering');
    expectEqual(stream.headers['content-encoding'], undefined, 'Content-Encoding');
  }),
  check('events.sse.retry-first', '§9.2', 'First retry: 3000; then the replay; then ready', async (ctx) => {
    const alice = await ctx.user('alice');
    const stream = await ctx.readyStream(alice.token);
    expectEqual([stream.fields[0], stream.retry], ['retry', 3000], 'the first field and the retry');
  }),
  check('events.sse.ready', '§9.3', 'Every stream sends event: ready whose id is the newest event id and whose data is {"lastEventId": "<id>"}', async (ctx) => {
    const alice = await ctx.user('alice');
    const stream = await ctx.readyStream(alice.token);
    const ready = stream.events.find((event) => event.type === 'ready')!;
    expectMatch(ready.id, /^\d+$/, 'the ready id');
    expectEqual(ready.json, { lastEventId: ready.id }, 'the ready data');
  }),
  check('events.sse.live', '§9.2', 'Each event as id: <id>, event: <type> and one data: line holding the whole event as JSON', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const stream = await ctx.readyStream(alice.token);
    const message = await ctx.post(alice, chat.id, 'live');
    const event = await stream.waitFor((item) => item.type === 'message.created' && item.json?.data?.id === message.id, 'message.created');
    expectEqual([event.json.id, event.json.type], [event.id, 'message.created'], 'the id and type inside the data');
    expectEqual(event.data.includes('\n'), false, 'one data line');
  }),
  check('events.event.shape', '§9.1', 'An event is {"id", "type", "chatId", "createdAt", "data"}; data is the resource as a GET answers it', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const stream = await ctx.readyStream(alice.token);
    const message = await ctx.post(alice, chat.id, 'shape');
    const event = await stream.waitFor((item) => item.type === 'message.created' && item.json?.data?.id === message.id, 'message.created');
    expectEqual(Object.keys(event.json).sort(), ['chatId', 'createdAt', 'data', 'id', 'type'], 'the keys of the event');
    expectMatch(event.json.id, /^\d+$/, 'id');
    expectMatch(event.json.createdAt, ISO_MS, 'createdAt');
    expectEqual(event.json.chatId, chat.id, 'chatId');
    const read = await ctx.call('GET', ctx.at(PATHS.message, { chatId: chat.id, messageId: message.id }), { token: alice.token });
    expectEqual(event.json.data, read.json.data, 'the message in the event and as GET answers it');
  }),
  check('events.event.order', '§9.1', 'Event ids increase over the whole server; events arrive in order', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const stream = await ctx.readyStream(alice.token);
    const ids: string[] = [];
    for (const text of ['a', 'b', 'c']) ids.push((await ctx.post(alice, chat.id, text)).id);
    await stream.waitFor((event) => event.json?.data?.id === ids[2], 'the third message');
    const events = selectChatEvents(stream, chat.id);
    expectEqual(readCreatedIds(events), ids, 'the messages in order');
    const eventIds = events.map((event) => BigInt(event.id!));
    expectTrue(eventIds.every((id, index) => index === 0 || id > eventIds[index - 1]!), `event ids increase: ${eventIds.join(', ')}`);
  }),
  check('events.resume.last-event-id', '§9.3', 'Resuming with Last-Event-ID sends, in id order, every event after that id, then ready', async (ctx) => {
    const { alice, chatId, since, ids } = await postThreeAfterMark(ctx);
    const stream = await ctx.readyStream(alice.token, { lastEventId: since });
    const replay = selectChatEvents(stream, chatId, true);
    expectEqual(readCreatedIds(replay), ids, 'the messages replayed before ready');
    expectTrue(stream.events.every((event) => event.id === undefined || BigInt(event.id) > BigInt(since)), 'nothing at or before the resume id');
  }),
  check('events.resume.after-query', '§9.3', 'On a first connection, ?after=<id> resumes the same way', async (ctx) => {
    const { alice, chatId, since, ids } = await postThreeAfterMark(ctx);
    const stream = await ctx.readyStream(alice.token, { query: `?after=${since}` });
    expectEqual(readCreatedIds(selectChatEvents(stream, chatId, true)), ids, 'the messages replayed before ready');
  }),
  check('events.resume.header-wins', '§9.3', 'The Last-Event-ID header wins over ?after', async (ctx) => {
    const { alice, chatId, since, ids } = await postThreeAfterMark(ctx);
    const late = await newestEventId(ctx, alice);
    const stream = await ctx.readyStream(alice.token, { lastEventId: since, query: `?after=${late}` });
    expectEqual(readCreatedIds(selectChatEvents(stream, chatId, true)), ids, 'the messages replayed from the header\'s id');
  }),
  check('events.resume.no-duplicate', '§9.3', 'No event is skipped or sent twice on one stream, across the replay and live', async (ctx) => {
    const { alice, chatId, since, ids } = await postThreeAfterMark(ctx);
    const stream = await ctx.readyStream(alice.token, { lastEventId: since });
    for (const text of ['four', 'five']) ids.push((await ctx.post(alice, chatId, text)).id);
    await stream.waitFor((event) => event.json?.data?.id === ids[4], 'the fifth message');
    expectEqual(readCreatedIds(selectChatEvents(stream, chatId)), ids, 'every message once, in order');
  }),
  check('events.resume.bad-parameters-400', '§9.3', 'after that is not a decimal integer, or any other parameter, is a 400 naming it', async (ctx) => {
    const alice = await ctx.user('alice');
    for (const [query, field] of [['?after=abc', 'after'], ['?after=-1', 'after'], ['?colour=red', 'colour']]) {
      const stream = await ctx.stream(alice.token, { query });
      expectEqual(stream.status, 400, `the status of ${query}`);
      const problem = JSON.parse(stream.body);
      expectEqual(problem.errors?.[0]?.field, field, `the field named for ${query}`);
    }
  }),
  check('events.resume.reset', '§9.3', 'A resume id newer than the newest event, or not a number, is answered with event: reset (without an id) before ready', async (ctx) => {
    const alice = await ctx.user('alice');
    const newest = await newestEventId(ctx, alice);
    for (const lastEventId of [String(BigInt(newest) + 1_000_000_000n), 'not-a-number']) {
      const stream = await ctx.readyStream(alice.token, { lastEventId });
      const types = stream.events.map((event) => event.type);
      expectEqual(types.slice(0, 2), ['reset', 'ready'], `the events for Last-Event-ID ${lastEventId}`);
      expectEqual(stream.events[0]!.id, undefined, 'the id of reset');
      expectEqual(typeof stream.events[0]!.json?.reason, 'string', 'the reason of reset');
    }
  }),
  check('events.sse.unauthenticated-401', '§9.2', 'The stream is authenticated like any request', async (ctx) => {
    const stream = await ctx.stream('not-a-token');
    expectEqual(stream.status, 401, 'the status');
    const problem = JSON.parse(stream.body);
    expectEqual(problem.code, 'ERR_UNAUTHENTICATED', 'the code');
  }),
  check('events.longpoll.immediate', '§9.8', 'GET /events?after=<id> answers {"data": [events], "meta": {"lastEventId"}} at once, with Link rel="next"', async (ctx) => {
    const { alice, chatId, since, ids } = await postThreeAfterMark(ctx);
    const reply = await ctx.call('GET', `${PATHS.events}?after=${since}&wait=5`, { token: alice.token });
    expectStatus(reply, 200);
    const events = reply.json.data.filter((event: { chatId: string }) => event.chatId === chatId);
    expectEqual(events.map((event: { data: { id: string } }) => event.data.id), ids, 'the messages');
    expectEqual(reply.json.meta.lastEventId, reply.json.data.at(-1).id, 'meta.lastEventId');
    expectMatch(String(reply.headers.link ?? ''), new RegExp(`after=${reply.json.meta.lastEventId}.*rel="next"`), 'Link');
  }),
  check('events.longpoll.wakes', '§9.8', 'Else as soon as one arrives', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const since = await newestEventId(ctx, alice);
    const waiting = ctx.call('GET', `${PATHS.events}?after=${since}&wait=20`, { token: alice.token, timeoutMs: 25_000 });
    const started = Date.now();
    const message = await ctx.post(alice, chat.id, 'wake up');
    const reply = await waiting;
    expectStatus(reply, 200);
    expectTrue(reply.json.data.some((event: { data: { id?: string } }) => event.data.id === message.id), 'the answer holds the new message');
    expectTrue(Date.now() - started < 10_000, 'the answer came before the wait ran out');
  }),
  check('events.longpoll.newest-only', '§9.8', 'after missing: only events after the newest at the time of the request; else after wait seconds with an empty list', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    await ctx.post(alice, chat.id, 'before the poll');
    const reply = await ctx.call('GET', `${PATHS.events}?wait=1`, { token: alice.token });
    expectStatus(reply, 200);
    expectEqual(reply.json.data, [], 'the events');
  }),
  check('events.longpoll.gone-410', '§9.8', 'after newer than the newest event: 410 ERR_EVENTS_GONE', async (ctx) => {
    const alice = await ctx.user('alice');
    const newest = await newestEventId(ctx, alice);
    expectProblem(await ctx.call('GET', `${PATHS.events}?after=${BigInt(newest) + 1_000_000_000n}&wait=0`, { token: alice.token }), 410, 'ERR_EVENTS_GONE');
  }),
  check('events.longpoll.bad-parameters-400', '§9.8', 'Any other parameter, or a bad after or wait: 400 naming it', async (ctx) => {
    const alice = await ctx.user('alice');
    for (const [query, field] of [['wait=31', 'wait'], ['wait=1.5', 'wait'], ['wait=-1', 'wait'], ['after=x', 'after'], ['colour=red', 'colour']]) {
      expectProblem(await ctx.call('GET', `${PATHS.events}?${query}`, { token: alice.token }), 400, undefined, field);
    }
  }),
  check('events.longpoll.head-and-xml', '§9.8', 'HEAD answers at once; JSON by default, XML too', async (ctx) => {
    const alice = await ctx.user('alice');
    const started = Date.now();
    expectStatus(await ctx.call('HEAD', `${PATHS.events}?wait=30`, { token: alice.token }), 200);
    expectTrue(Date.now() - started < 5000, 'HEAD answered at once');
    const xml = await ctx.call('GET', `${PATHS.events}?wait=0`, { token: alice.token, headers: { Accept: 'application/xml' } });
    expectStatus(xml, 200);
    expectHeader(xml, 'content-type', /^application\/xml\b/);
  }),
];
