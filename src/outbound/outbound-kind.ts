// What each kind of outbound delivery sends and what its reply means (docs/protocol.md §16.5): the delivery loop
// knows none of them; a feature registers its kind ('webhook', 'push', ...) and the loop runs it.
import type { OutboundDeliveryRow } from '../storage/outbound-repository.ts';
import type { PostReply } from './post-once.ts';

/** One POST a kind asks for. */
export interface PreparedPost {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** What a reply (or a failure to get one) means for the delivery. */
export type Verdict =
  | { outcome: 'delivered' }
  /** Try again later; afterMs (a Retry-After) replaces the backoff's delay when it is longer. */
  | { outcome: 'retry'; afterMs?: number }
  /** Never try again: the target said it is gone (a push subscription's 404 or 410). */
  | { outcome: 'give-up' };

export interface OutboundKind {
  readonly kind: string;
  /** Deliveries of this kind sent at once in a process (its share of the loop's in-flight cap); absent: no share of its own. */
  readonly maxInFlight?: number;
  /** Deliveries of this kind started a second in a process, spread evenly; absent: as fast as slots come back. */
  readonly perSecond?: number;
  /** The POST for a delivery, or null to drop it unsent (its target was disabled or deleted meanwhile). */
  prepare(delivery: OutboundDeliveryRow, now: number): Promise<PreparedPost | null>;
  /** What a reply means; judgeByStatus when absent. */
  judge?(reply: PostReply): Verdict;
  /** After a delivery succeeded (a webhook answers in the chat). Errors are logged, the delivery stays delivered. */
  delivered?(delivery: OutboundDeliveryRow, reply: PostReply): Promise<void>;
  /** After the loop gave a delivery up (its retry window ended, or judge said give-up). */
  gaveUp?(delivery: OutboundDeliveryRow, reply: PostReply): Promise<void>;
  /**
   * Once when the loop starts: finishes the after-work of gaveUp that a crash cut short (it runs after the attempt's
   * commit). Idempotent: it may find work already done.
   */
  resume?(): Promise<void>;
}

const MAX_RETRY_AFTER_MS = 3_600_000;

/** Retry-After as delta-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now; undefined when absent or bad. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

/** 2xx: delivered; anything else (no reply, a redirect, 4xx, 5xx): again later, after Retry-After on a 429 or 5xx. */
export function judgeByStatus(reply: PostReply): Verdict {
  if (reply.error === null && reply.status >= 200 && reply.status < 300) return { outcome: 'delivered' };
  const honoured = reply.status === 429 || reply.status >= 500;
  const afterMs = honoured ? parseRetryAfter(reply.headers['retry-after'], Date.now()) : undefined;
  return afterMs === undefined ? { outcome: 'retry' } : { outcome: 'retry', afterMs };
}

/** The kinds a loop runs, by name: each registered once. */
export class OutboundKinds {
  private readonly kinds = new Map<string, OutboundKind>();

  register(kind: OutboundKind): void {
    if (this.kinds.has(kind.kind)) throw new Error(`outbound: the kind ${kind.kind} is registered twice`);
    this.kinds.set(kind.kind, kind);
  }

  find(kind: string): OutboundKind | undefined {
    return this.kinds.get(kind);
  }

  all(): OutboundKind[] {
    return [...this.kinds.values()];
  }
}
