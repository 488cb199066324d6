// The outbound delivery queue of the Store (docs/protocol.md §16.5), beside store.ts: each backend implements it on
// its table outbound_deliveries. src/outbound/delivery-loop.ts is its one user apart from the queueing writes.
import type { ParsedQuery } from '../parsers/query.ts';
import type { Page } from './rows.ts';

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'dropped';

/** One POST to make (or made) to one target of one kind. */
export interface OutboundDeliveryRow {
  /** Increasing in queue order: a target's deliveries go out in id order. */
  id: number;
  /** Who sends it and what its reply means: 'webhook', 'push' (src/outbound/outbound-kind.ts). */
  kind: string;
  /** The webhook, subscription, ... it goes to: never two of one target in flight. */
  targetId: string;
  eventId: number | null;
  /** JSON text; the kind reads it. */
  payload: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
  lastAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  lastDurationMs: number | null;
}

/** One attempt of a delivery (docs/protocol.md §16.4), numbered from 1. */
export interface DeliveryAttemptRow {
  deliveryId: number;
  attempt: number;
  at: number;
  status: number | null;
  error: string | null;
  durationMs: number | null;
}

/** A delivery keeps its newest attempts, this many at most (the default retry schedule makes about 35 in 24 h). */
export const MAX_KEPT_ATTEMPTS = 40;

export type NewDelivery = Pick<OutboundDeliveryRow, 'kind' | 'targetId' | 'eventId' | 'payload' | 'createdAt'>;

/** What one attempt came to: the row's next state, and when to try again while it stays pending. */
export interface AttemptRecord {
  state: DeliveryState;
  nextAttemptAt: number;
  at: number;
  status: number | null;
  error: string | null;
  durationMs: number | null;
}

export interface OutboundRepository {
  /** Only through a Tx, in the transaction of the change that causes it; answers its id. */
  enqueueDelivery(delivery: NewDelivery): Promise<number>;
  /**
   * Leases at most `limit` deliveries that are due at `now` for `owner` until `leaseUntil`, each the first pending
   * delivery of its target and not leased by anyone (or its lease ran out), in one atomic write: two processes
   * never lease the same row, and a target never has two rows leased by two owners. With `perTarget` above 1, each
   * head comes with up to perTarget - 1 pending rows right behind it (a batch, sent in order by the one owner),
   * leased in the same transaction. Answered in id order.
   */
  leaseDueDeliveries(owner: string, now: number, leaseUntil: number, limit: number, perTarget?: number): Promise<OutboundDeliveryRow[]>;
  /**
   * Records an attempt (on the row, and as a row of its attempts, trimmed to the newest MAX_KEPT_ATTEMPTS) and frees
   * the lease, only while `owner` still holds it: false when the lease was lost.
   */
  recordAttempt(id: number, owner: string, attempt: AttemptRecord): Promise<boolean>;
  /**
   * Records a batch's attempts and gives back the rows it did not try, in one transaction (one commit), each only
   * while `owner` still holds its lease; answers which ids it recorded.
   */
  recordAttempts(owner: string, attempts: readonly (AttemptRecord & { id: number })[], released: readonly number[]): Promise<number[]>;
  findDelivery(id: number): Promise<OutboundDeliveryRow | undefined>;
  /** Every pending delivery of the target becomes 'dropped' (the target was disabled or deleted); answers how many. */
  dropPendingDeliveries(kind: string, targetId: string): Promise<number>;
  /** Forgets a target's deliveries, every state (the target is gone). */
  deleteDeliveriesOf(kind: string, targetId: string): Promise<number>;
  /** Forgets at most `limit` finished deliveries (delivered, failed, dropped) queued before `before`; answers how many. */
  deleteFinishedDeliveries(before: number, limit: number): Promise<number>;
  /**
   * A target's deliveries. Fields id, eventId, state, attempts, nextAttemptAt, createdAt, lastAttemptAt, lastStatus.
   */
  listDeliveries(kind: string, targetId: string, query: ParsedQuery): Promise<Page<OutboundDeliveryRow>>;
  /** The kept attempts of these deliveries, by delivery id then attempt number. */
  listAttempts(deliveryIds: readonly number[]): Promise<DeliveryAttemptRow[]>;
  /** The targets of a kind that have a given-up delivery (a kind finishes what a crash cut short). */
  listTargetsWithFailures(kind: string): Promise<string[]>;
}
