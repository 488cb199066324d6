// A log in memory for the hub's unit tests: events in id order, each chat's members as the store's tables would
// hold them after each event, and a snapshot that freezes both, as the store's snapshot does.
import type { TestContext } from 'node:test';
import { EventHub, type EventLog, type HubOptions, type Subscriber } from '../../src/events/hub.ts';
import type { LoggedEvent } from '../../src/events/logged-event.ts';
import { isPurgedBy } from '../../src/events/purge-rule.ts';
import type { EventPurge, EventRecord } from '../../src/storage/rows.ts';

export class MemoryLog implements EventLog {
  records: EventRecord[] = [];
  /** chat -> its members now. */
  members = new Map<string, Set<string>>();
  /** readAfter calls: how often the hub read the log. */
  reads = 0;

  append(type: string, chatId: string, data: Record<string, unknown>, extra: Partial<EventRecord> = {}): number {
    const id = (this.records.at(-1)?.id ?? 0) + 1;
    this.records.push({ id, type, chatId, onlyUserId: null, alsoUserIds: null, subjectId: null, createdAt: 0, data: JSON.stringify(data), ...extra });
    return id;
  }

  /** The deleting transaction's purge (src/events/purge-rule.ts): what a delete removes from the log. */
  purge(purge: EventPurge): void {
    this.records = this.records.filter((record) => !isPurgedBy(purge, record));
  }

  created(chatId: string, members: readonly string[]): number {
    this.members.set(chatId, new Set(members));
    return this.append('chat.created', chatId, { id: chatId, members });
  }

  added(chatId: string, userId: string): number {
    this.members.get(chatId)!.add(userId);
    return this.append('member.added', chatId, { userId });
  }

  /** The removed member still receives it: it names them (src/resources/chats/handlers.ts). */
  removed(chatId: string, userId: string): number {
    this.members.get(chatId)!.delete(userId);
    return this.append('member.removed', chatId, { userId }, { alsoUserIds: JSON.stringify([userId]) });
  }

  message(chatId: string, messageId: string): number {
    return this.append('message.created', chatId, { id: messageId }, { subjectId: messageId });
  }

  /** An event for one user only (a read marker). */
  only(chatId: string, userId: string): number {
    return this.append('read.updated', chatId, { chatId }, { onlyUserId: userId });
  }

  get newestId(): number {
    return this.records.at(-1)?.id ?? 0;
  }

  async readAfter(afterId: number, limit: number): Promise<EventRecord[]> {
    this.reads++;
    return this.records.filter((record) => record.id > afterId).slice(0, limit);
  }

  async readTypesBetween(afterId: number, throughId: number, types: readonly string[]): Promise<EventRecord[]> {
    return this.records.filter((record) => record.id > afterId && record.id <= throughId && types.includes(record.type));
  }

  async prunedThrough(): Promise<number> {
    return 0;
  }

  async chatIdsOfUser(userId: string): Promise<string[]> {
    return [...this.members].filter(([, users]) => users.has(userId)).map(([chatId]) => chatId);
  }

  async pruneChunk(): Promise<number> {
    return 0;
  }

  /** The store's snapshot: the log and the members as they stood when it began, whatever is appended meanwhile. */
  snapshot = async <T>(work: (log: EventLog) => Promise<T>): Promise<T> => {
    const frozen = new MemoryLog();
    frozen.records = [...this.records];
    frozen.members = new Map([...this.members].map(([chatId, users]) => [chatId, new Set(users)]));
    return work(frozen);
  };
}

/** A hub over the log whose timers never fire in a test unless asked (wake-ups come from the test). */
export function hubOver(t: TestContext, log: MemoryLog, startAfter: number, options: Partial<HubOptions> = {}): EventHub {
  const hub = new EventHub({
    log, snapshot: log.snapshot, startAfter, now: () => 0, retentionSeconds: 86_400,
    pingMs: 3_600_000, pollMs: 3_600_000, pruneMs: 3_600_000, liveSessions: async (ids) => new Map(ids.map((id) => [id, Infinity])), ...options,
  });
  t.after(() => hub.stop());
  return hub;
}

export interface Recorder extends Subscriber {
  got: LoggedEvent[];
  /** What ready() was told, and how many events had been delivered then. */
  readyAt: { newestId: number; delivered: number } | undefined;
  ended: string[];
  pings: number;
}

/** A subscriber that records what it is given and is never behind. */
export function recorder(userId: string, sessionId = 's', kind: 'stream' | 'poll' = 'stream'): Recorder {
  const subscriber: Recorder = {
    userId, sessionId, kind, got: [], readyAt: undefined, ended: [], pings: 0,
    deliver: (events) => void subscriber.got.push(...events),
    ready: (newestId) => { subscriber.readyAt = { newestId, delivered: subscriber.got.length }; },
    isCongested: () => false,
    whenDrained: async () => {},
    ping: () => void subscriber.pings++,
    end: (reason) => void subscriber.ended.push(reason),
  };
  return subscriber;
}

/** Waits, a turn of the event loop at a time, until the condition holds (never a fixed sleep). */
export async function until(condition: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 10_000; turn++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`still waiting for ${what}`);
}

/** Attaches as GET /events does (src/resources/events/handlers.ts), replays from `resumeId` (or now), goes live. */
export async function openStream(hub: EventHub, subscriber: Subscriber, resumeId?: number): Promise<void> {
  const from = await hub.attach(subscriber);
  await hub.replayThenGoLive(subscriber, await hub.openReplay(subscriber.userId, resumeId ?? from));
}

export const ids = (events: readonly LoggedEvent[]): number[] => events.map((event) => event.id);
