// Presence across processes (docs/protocol.md §14.6, docs/events.md "Presence"): requests are remembered in memory
// and written in one statement per flush (never a write per request); who holds a stream is announced on the bus
// (opened, closed, and every HEARTBEAT_MS while open, so a process that died is forgotten); a change of what a
// user's peers would be told goes to them as a presence.changed event.
import type { EphemeralBus, BusMessage } from './ephemeral-bus.ts';
import { AWAY_MS, computePresence, type Presence } from './presence-rule.ts';

export type { Presence } from './presence-rule.ts';

/** Stream holders are announced this often while open... */
export const HEARTBEAT_MS = 15_000;
/** ...and forgotten this long after the last announcement (a process that died): offline within 60 s. */
export const HOLDER_TTL_MS = 40_000;
/** At most this many users in one bus message (a PostgreSQL NOTIFY carries 8000 bytes). */
const IDS_PER_MESSAGE = 200;
/**
 * At most this many users in one write of a flush: at 15,000 people one statement for all held the event loop for
 * 28 ms every 30 s (bench/RESULTS.md, "The presence flush in pieces"); a piece is about a millisecond, and the
 * pieces are written one after another, so requests run between them.
 */
export const LAST_SEEN_PER_WRITE = 500;

export interface PresenceOptions {
  bus: EphemeralBus;
  now(): number;
  /** Open streams of the user on this process (the hub's count). */
  localStreams(userId: string): number;
  /** Users with an open stream on this process. */
  localHolders(): string[];
  /** The chats of the user: who is told of a change (those who share one). */
  chatIdsOfUser(userId: string): Promise<string[]>;
  /** The user's last_seen_at as the database has it (other processes' flushes), or null. */
  lastSeenOf(userId: string): Promise<number | null>;
  /** One statement for up to LAST_SEEN_PER_WRITE users: last_seen_at = max(last_seen_at, at). */
  recordLastSeen(seen: readonly (readonly [string, number])[]): Promise<void>;
  logError(error: unknown): void;
  flushMs?: number;
  sweepMs?: number;
}

function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

export class PresenceTracker {
  /** The newest request of each user this process served. */
  private readonly activity = new Map<string, number>();
  /** Requests not yet written to last_seen_at. */
  private readonly unflushed = new Map<string, number>();
  /** User -> process origin -> until when its announcement holds. */
  private readonly remote = new Map<string, Map<string, number>>();
  private readonly leftAt = new Map<string, number>();
  /** What this process last told each user's peers (or saw them told): a change of it is announced. */
  private readonly announced = new Map<string, Presence>();
  /**
   * What other processes told the peers of users this process does not follow (offline ones forgotten): a user's
   * first request here finds them told 'online' already. Under --workers a person's requests reach every process, and
   * each announced them again: 20,000 announcements for 12,500 people coming online, each to all their peers.
   */
  private readonly toldElsewhere = new Map<string, Presence>();
  private readonly timers: NodeJS.Timeout[] = [];
  private stopped = false;
  /** A sweep waits on the database now and then: the next one does not start before it ends. */
  private sweeping = false;

  private readonly options: PresenceOptions;

  constructor(options: PresenceOptions) {
    this.options = options;
    options.bus.listen((message, origin) => this.hear(message, origin));
    const every = (ms: number, work: () => Promise<void> | void): void => {
      const timer = setInterval(() => void Promise.resolve().then(work).catch(options.logError), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(options.flushMs ?? 30_000, () => this.flush());
    every(options.sweepMs ?? 5000, () => this.sweep());
    every(HEARTBEAT_MS, () => this.announceHolders(options.localHolders(), []));
  }

  /** An authenticated request: two map writes; an announcement only when the user was not online to their peers. */
  noteActivity(userId: string): void {
    if (this.stopped) return;
    const now = this.options.now();
    this.activity.set(userId, now);
    this.unflushed.set(userId, now);
    if (this.announced.get(userId) !== 'online') this.comeOnline(userId);
  }

  /** The hub's streams of a user changed on this process (opened: the first; closed: the last). */
  streamsChanged(userId: string, open: number): void {
    if (this.stopped) return;
    if (open === 1) {
      this.leftAt.delete(userId);
      this.announceHolders([userId], []);
      if (this.announced.get(userId) !== 'online') this.comeOnline(userId);
    } else if (open === 0) {
      this.leftAt.set(userId, this.options.now());
      this.announceHolders([], [userId]);
      // The sweep tells the peers once the grace is over and no stream is open anywhere.
      if (!this.announced.has(userId)) this.follow(userId, 'online');
    }
  }

  /** The user's presence now; `lastSeenAt` is the database's, from the row the caller read. */
  presenceOf(userId: string, lastSeenAt: number | null): Presence {
    const now = this.options.now();
    const local = this.activity.get(userId) ?? null;
    return computePresence({
      streamOpen: this.options.localStreams(userId) > 0 || this.holdsRemotely(userId, now),
      lastActivity: local === null || (lastSeenAt !== null && lastSeenAt > local) ? lastSeenAt : local,
      leftAt: this.leftAt.get(userId) ?? null,
      now,
    });
  }

  /** Writes the requests since the last flush, a statement for each LAST_SEEN_PER_WRITE users (also at shutdown). */
  async flush(): Promise<void> {
    if (this.unflushed.size === 0) return;
    const seen = [...this.unflushed];
    this.unflushed.clear();
    for (const piece of chunksOf(seen, LAST_SEEN_PER_WRITE)) await this.options.recordLastSeen(piece);
  }

  /** Shutdown: the other processes hear at once that this one's streams closed; the last requests are written. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    const holders = this.options.localHolders();
    if (holders.length > 0) this.announceHolders([], holders);
    await this.flush();
  }

  private holdsRemotely(userId: string, now: number): boolean {
    for (const until of this.remote.get(userId)?.values() ?? []) if (until > now) return true;
    return false;
  }

  private hear(message: BusMessage, origin: string): void {
    if (message.kind === 'event') {
      // A change another process announced: this one will not announce it again.
      // Only for users this process follows itself: it does not take up everyone another process announced.
      // Of the others only what was told, until one of their requests comes here (comeOnline).
      if (message.event.type === 'presence.changed') {
        const { userId, presence } = message.event.data as { userId: string; presence: Presence };
        if (this.announced.has(userId)) this.follow(userId, presence);
        else if (presence === 'offline') this.toldElsewhere.delete(userId);
        else this.toldElsewhere.set(userId, presence);
      }
      return;
    }
    if (origin === this.options.bus.origin) return;
    const now = this.options.now();
    for (const userId of message.open) {
      let holders = this.remote.get(userId);
      if (!holders) this.remote.set(userId, holders = new Map());
      holders.set(origin, now + HOLDER_TTL_MS);
      this.leftAt.delete(userId);
    }
    // When the stream closed there, not when it was heard here: the grace is counted from the same instant everywhere.
    const closedAt = Math.min(message.at ?? now, now);
    for (const userId of message.closed) this.forgetHolder(userId, origin, closedAt);
  }

  /** True when that was the user's last stream anywhere. */
  private forgetHolder(userId: string, origin: string, now: number): boolean {
    const holders = this.remote.get(userId);
    if (!holders?.delete(origin) || holders.size > 0) return false;
    this.remote.delete(userId);
    if (this.options.localStreams(userId) > 0) return false;
    this.leftAt.set(userId, now);
    return true;
  }

  /** Forgets the announcements of processes gone silent, then tells peers of every change time made. */
  /** Also run by its timer (every 5 s). */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.sweepOnce();
    } finally {
      this.sweeping = false;
    }
  }

  private async sweepOnce(): Promise<void> {
    const now = this.options.now();
    for (const [userId, holders] of this.remote) {
      for (const [origin, until] of holders) {
        // The process died: its holders' peers are told by whoever notices (idempotent, so several may).
        if (until <= now && this.forgetHolder(userId, origin, now) && !this.announced.has(userId)) this.follow(userId, 'online');
      }
    }
    for (const [userId, at] of this.leftAt) if (now - at > AWAY_MS) this.leftAt.delete(userId);
    for (const [userId, told] of this.announced) {
      let presence = this.presenceOf(userId, null);
      // Another process may have served a request this one did not: its flush is in the database.
      if (presence !== told && presence !== 'online') presence = this.presenceOf(userId, await this.options.lastSeenOf(userId));
      if (presence !== told) this.announce(userId, presence);
      if (presence === 'offline') {
        this.announced.delete(userId);
        this.activity.delete(userId);
      }
    }
  }

  /** A request or a stream of a user not online to their peers as this process knows: told, unless another process told them. */
  private comeOnline(userId: string): void {
    if (this.toldElsewhere.get(userId) === 'online') this.follow(userId, 'online');
    else this.announce(userId, 'online');
  }

  /** From now on this process follows the user: what it (or another) last told their peers. */
  private follow(userId: string, presence: Presence): void {
    this.announced.set(userId, presence);
    this.toldElsewhere.delete(userId);
  }

  private announce(userId: string, presence: Presence): void {
    this.follow(userId, presence);
    const createdAt = this.options.now();
    this.options.chatIdsOfUser(userId).then((chatIds) => {
      for (const audienceChatIds of chunksOf(chatIds, IDS_PER_MESSAGE)) {
        this.options.bus.publish({ kind: 'event', event: {
          type: 'presence.changed', chatId: null, audienceChatIds, exceptUserId: userId, createdAt, data: { userId, presence },
        } });
      }
    }, this.options.logError);
  }

  private announceHolders(open: readonly string[], closed: readonly string[]): void {
    const at = this.options.now();
    for (const chunk of chunksOf(open, IDS_PER_MESSAGE)) this.options.bus.publish({ kind: 'streams', open: chunk, closed: [], at });
    for (const chunk of chunksOf(closed, IDS_PER_MESSAGE)) this.options.bus.publish({ kind: 'streams', open: [], closed: chunk, at });
  }
}
