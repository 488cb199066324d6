// The chat server's metrics by name: what the request path, the group commit and the event streams report.
import { monitorEventLoopDelay, type ELDHistogram } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry, type MetricSnapshot } from './registry.ts';

/** Seconds; from 1 ms to 10 s, where a chat API's answers fall. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Writes per committed batch; the group commit holds at most 256. */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];
/** A method outside these becomes "other", so a client cannot grow the label set. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** The route label of a request no route matched (a 404 or a bad request): never the raw path. */
export const UNMATCHED_ROUTE = 'unmatched';

export interface RequestObservation {
  method: string;
  /** The matched route pattern, e.g. /chats/{id}/messages, or UNMATCHED_ROUTE. */
  route: string;
  /** The status sent, or 'aborted' when the client left before an answer. */
  status: string;
  durationSeconds: number;
}

/**
 * Every metric the server exposes. The event code calls eventsWritten.inc() and eventsDelivered.inc()
 * directly, and open streams are read from the hub; the request path reports through observeRequest, the group commit through
 * observeWriteBatch. Recording is cheap; the event-loop monitor only runs between start() and stop().
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly requests = this.registry.register(new Counter('chat_http_requests_total', 'HTTP requests answered, by method, route pattern and status.', ['method', 'route', 'status']));
  readonly requestDuration = this.registry.register(new Histogram('chat_http_request_duration_seconds', 'Time from request to the end of the answer, by method, route pattern and status.', ['method', 'route', 'status'], DURATION_BUCKETS));
  readonly rateLimited = this.registry.register(new Counter('chat_rate_limited_requests_total', 'Requests answered 429 Too Many Requests, by route pattern.', ['route']));
  readonly loginFailures = this.registry.register(new Counter('chat_login_failures_total', 'Logins refused for a wrong login or password.'));
  readonly writeBatches = this.registry.register(new Counter('chat_db_write_batches_total', 'Database transactions committed by the group commit.'));
  readonly writeBatchSize = this.registry.register(new Histogram('chat_db_write_batch_size', 'Writes shared by one group-commit transaction.', [], BATCH_BUCKETS));
  /** Read from the event hub at scrape time (services.ts wires it with readFrom). */
  readonly streamsOpen = this.registry.register(new Gauge('chat_event_streams_open', 'Event streams (GET /events) open now.'));
  readonly eventsWritten = this.registry.register(new Counter('chat_events_written_total', 'Events appended to the event log.'));
  readonly eventsDelivered = this.registry.register(new Counter('chat_events_delivered_total', 'Events sent to event-stream clients (one per stream that received it).'));
  readonly ephemeralDelivered = this.registry.register(new Counter('chat_ephemeral_delivered_total', 'Ephemeral events (typing, presence.changed) sent to event-stream clients (one per stream that received it).'));
  private loopDelay: ELDHistogram | undefined;

  constructor() {
    const lag = (pick: (delay: ELDHistogram) => number) => () => {
      const delay = this.loopDelay;
      // The histogram reads in nanoseconds; before its first sample it reports NaN or a huge minimum.
      return delay && delay.count > 0 ? pick(delay) / 1e9 : 0;
    };
    this.registry.register(new Gauge('chat_event_loop_lag_seconds', 'Event-loop delay since the previous scrape: the mean.', [], lag((delay) => delay.mean), 'max'));
    this.registry.register(new Gauge('chat_event_loop_lag_p99_seconds', 'Event-loop delay since the previous scrape: the 99th percentile.', [], lag((delay) => delay.percentile(99)), 'max'));
    this.registry.register(new Gauge('chat_event_loop_lag_max_seconds', 'Event-loop delay since the previous scrape: the largest.', [], lag((delay) => delay.max), 'max'));
    this.registry.register(new Gauge('chat_process_resident_memory_bytes', 'Resident set size of the server process.', [], () => process.memoryUsage.rss()));
  }

  /** Starts sampling the event-loop delay (every 10 ms). */
  start(): void {
    if (this.loopDelay) return;
    this.loopDelay = monitorEventLoopDelay({ resolution: 10 });
    this.loopDelay.enable();
  }

  stop(): void {
    this.loopDelay?.disable();
    this.loopDelay = undefined;
  }

  observeRequest(observation: RequestObservation): void {
    const method = METHODS.has(observation.method) ? observation.method : 'other';
    this.requests.inc(1, method, observation.route, observation.status);
    this.requestDuration.observe(observation.durationSeconds, method, observation.route, observation.status);
    // Every limit answers 429 (RFC 6585 §4), so counting the status counts every limited request.
    if (observation.status === '429') this.rateLimited.inc(1, observation.route);
  }

  observeWriteBatch(writes: number): void {
    this.writeBatches.inc();
    this.writeBatchSize.observe(writes);
  }

  /** The state as plain data for the primary of --workers to merge; the event-loop figures start again too. */
  snapshot(): MetricSnapshot[] {
    const snapshot = this.registry.snapshot();
    this.loopDelay?.reset();
    return snapshot;
  }

  /** The exposition; the event-loop figures start again from here. */
  render(): string {
    const text = this.registry.render();
    this.loopDelay?.reset();
    return text;
  }
}
