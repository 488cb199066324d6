// The ephemeral bus (src/events/ephemeral-bus.ts) and the hub's delivery of its events: local listeners at once, the
// transport for the others, its own messages dropped when they come back; to members now, never the excepted user,
// never to a long-poll or a stream still replaying.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EphemeralBus, type BusMessage } from '../../src/events/ephemeral-bus.ts';
import type { EphemeralEvent } from '../../src/events/ephemeral-event.ts';
import type { SseFrame } from '../../src/events/sse-frame.ts';
import { hubOver, MemoryLog, openStream, recorder, type Recorder } from './memory-log.ts';

const TYPING: EphemeralEvent = {
  type: 'typing', chatId: 'a', audienceChatIds: ['a'], exceptUserId: 'u', createdAt: Date.UTC(2026, 10, 21, 9, 30),
  data: { chatId: 'a', userId: 'u', until: '2026-11-21T09:30:06.000Z' },
};

function withFrames(subscriber: Recorder): SseFrame[] {
  const frames: SseFrame[] = [];
  subscriber.deliverEphemeral = (frame) => void frames.push(frame);
  return frames;
}

test('publish tells this process\'s listeners at once and sends one payload on the transport', () => {
  const bus = new EphemeralBus();
  const heard: [BusMessage, string][] = [];
  const sent: string[] = [];
  bus.listen((message, origin) => heard.push([message, origin]));
  bus.connect({ send: (payload) => sent.push(payload) });
  bus.publish({ kind: 'event', event: TYPING });
  assert.deepEqual(heard, [[{ kind: 'event', event: TYPING }, bus.origin]]);
  assert.deepEqual(sent.map((payload) => JSON.parse(payload)), [{ o: bus.origin, m: { kind: 'event', event: TYPING } }]);
});

test('receive hands another process\'s message to the listeners; its own (a NOTIFY comes back) and garbage are dropped', () => {
  const here = new EphemeralBus();
  const there = new EphemeralBus();
  const sent: string[] = [];
  there.connect({ send: (payload) => sent.push(payload) });
  here.connect({ send: (payload) => sent.push(payload) });
  const heard: string[] = [];
  here.listen((message, origin) => heard.push(`${message.kind} from ${origin === there.origin ? 'there' : 'here'}`));
  there.publish({ kind: 'streams', open: ['u'], closed: [] });
  here.publish({ kind: 'event', event: TYPING });
  for (const payload of sent) here.receive(payload);
  for (const payload of ['not json', '{"o":"x","m":{"kind":"event","event":{"type":"message.created"}}}', '{"o":"x","m":{"kind":"streams","open":[1],"closed":[]}}']) here.receive(payload);
  // Its own event was heard once, as it was published; the echo was dropped.
  assert.deepEqual(heard, ['event from here', 'streams from there']);
  assert.equal(here.received, 1);
});

test('the hub delivers an ephemeral event to the live streams of the chat\'s members, never to the excepted user, a long-poll or another chat', async (t) => {
  const log = new MemoryLog();
  log.created('a', ['u', 'v', 'w']);
  log.created('b', ['x']);
  const hub = hubOver(t, log, log.newestId);
  const [u, v, poll, x] = [recorder('u'), recorder('v'), recorder('w', 's', 'poll'), recorder('x')];
  const frames = { u: withFrames(u), v: withFrames(v), x: withFrames(x) };
  for (const subscriber of [u, v, poll, x]) await openStream(hub, subscriber);
  assert.equal(hub.deliverEphemeral(TYPING), 1);
  assert.deepEqual(frames.u, [], 'the typist');
  assert.deepEqual(frames.x, [], 'not a member');
  assert.equal(frames.v.length, 1);
  assert.equal(frames.v[0]!.frameText, 'event: typing\ndata: {"type":"typing","chatId":"a","createdAt":"2026-11-21T09:30:00.000Z","data":{"chatId":"a","userId":"u","until":"2026-11-21T09:30:06.000Z"}}\n\n');
  assert.deepEqual(poll.got, [], 'a long-poll answers with logged events alone');
  // Members now: v leaves the chat, and hears nothing more of it.
  log.removed('a', 'v');
  hub.wake();
  await hub.catchUp();
  assert.equal(hub.deliverEphemeral(TYPING), 0);
});

test('the hub tells of a user\'s first stream opening and last one closing, not of long-polls or the streams between', async (t) => {
  const log = new MemoryLog();
  log.created('a', ['u']);
  const told: string[] = [];
  const hub = hubOver(t, log, log.newestId, { streamsChanged: (userId, open) => told.push(`${userId} ${open}`) });
  const [one, two, poll] = [recorder('u'), recorder('u'), recorder('u', 's', 'poll')];
  for (const subscriber of [one, two, poll]) await openStream(hub, subscriber);
  hub.detach(poll);
  hub.detach(one);
  hub.detach(two);
  hub.detach(two);
  assert.deepEqual(told, ['u 1', 'u 0']);
  assert.deepEqual(hub.streamHolders(), []);
});
