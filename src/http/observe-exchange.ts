// The one place that watches each exchange end to end: metrics, the access log and --trace.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerMetrics } from '../metrics/server-metrics.ts';
import { UNMATCHED_ROUTE } from '../metrics/server-metrics.ts';
import { formatAccessLine, type LogFormat } from './access-log.ts';
import { redactTarget, traceExchange } from './trace.ts';

export interface ObserveOptions {
  requestId: string;
  /** performance.now() when the request arrived. */
  started: number;
  now(): number;
  /** undefined: no metrics recorded. */
  metrics: ServerMetrics | undefined;
  /** undefined: no access log. */
  logFormat: LogFormat | undefined;
  trace: boolean;
}

/** What routing learns about the request, filled in as it goes: the route pattern and the caller. */
export interface ExchangeLabels {
  route: string;
  userId: string | undefined;
}

/** Counts the body bytes a response writes (for the log's `bytes`), whatever writes them. */
function countBodyBytes(res: ServerResponse): () => number {
  let bytes = 0;
  const add = (chunk: unknown, encoding: unknown): void => {
    if (typeof chunk === 'string') bytes += Buffer.byteLength(chunk, typeof encoding === 'string' ? encoding as BufferEncoding : 'utf8');
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => { add(chunk, rest[0]); return write(chunk, ...rest); }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => { add(chunk, rest[0]); return end(chunk, ...rest); }) as typeof res.end;
  return () => bytes;
}

interface Watch {
  method: string;
  /** The request target as it arrived (redacted when written). */
  target: string;
  options: ObserveOptions;
  labels: ExchangeLabels;
  trace: ReturnType<typeof traceExchange> | undefined;
  bytes: (() => number) | undefined;
}

/** Where a response keeps its watch: one shared 'close' listener reads it, so no closure is made per request. */
const WATCH = Symbol('watch');

type Watched = ServerResponse & { [WATCH]?: Watch };

/** The response closed (answered, or the client left): record the metrics, the access line, the trace block. */
function onClose(this: Watched): void {
  const watch = this[WATCH];
  if (!watch) return;
  this[WATCH] = undefined;
  record(watch, this.headersSent ? this.statusCode : undefined, watch.bytes?.() ?? 0);
}

/** `status` undefined: the client left before an answer was sent. */
function record(watch: Watch, status: number | undefined, bodyBytes: number): void {
  const { method, target, options, labels, trace } = watch;
  const { metrics, logFormat } = options;
  const durationMs = performance.now() - options.started;
  metrics?.observeRequest({ method, route: labels.route, status: status === undefined ? 'aborted' : String(status), durationSeconds: durationMs / 1000 });
  if (!logFormat && !trace) return;
  const time = options.now();
  if (logFormat) {
    process.stdout.write(formatAccessLine(logFormat, {
      time,
      requestId: options.requestId,
      method,
      route: labels.route,
      path: redactTarget(target),
      status: status ?? 0,
      bytes: bodyBytes,
      durationMs,
      userId: labels.userId,
    }));
  }
  if (trace) process.stderr.write(trace.format({ time, requestId: options.requestId, durationMs }));
}

/**
 * An event stream leaving `node:http` (http/leave-http.ts): its response will never close. The watch comes off it,
 * and the stream calls the returned function when its connection closes, with the body bytes it sent (chunk framing
 * included: the stream counts them on its socket). The watch keeps the request's method and target, not the request
 * nor the response's byte counter, whose closure holds the response: a stream lives for hours (its trace, when on,
 * keeps both).
 */
export function takeWatch(res: ServerResponse): ((bodyBytes: number) => void) | undefined {
  const watched = res as Watched;
  const watch = watched[WATCH];
  if (!watch) return undefined;
  watched[WATCH] = undefined;
  res.off('close', onClose);
  const status = res.statusCode;
  const kept: Watch = { ...watch, bytes: undefined };
  return (bodyBytes) => record(kept, status, bodyBytes);
}

/**
 * Starts watching; the returned labels are filled in by routing. When the response closes (answered, or the
 * client left) it records the metrics, writes the access line to stdout and the trace block to stderr.
 */
export function observeExchange(req: IncomingMessage, res: ServerResponse, options: ObserveOptions): ExchangeLabels {
  const labels: ExchangeLabels = { route: UNMATCHED_ROUTE, userId: undefined };
  if (!options.metrics && !options.logFormat && !options.trace) return labels;
  (res as Watched)[WATCH] = {
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    options,
    labels,
    trace: options.trace ? traceExchange(req, res) : undefined,
    bytes: options.logFormat ? countBodyBytes(res) : undefined,
  };
  res.on('close', onClose);
  return labels;
}
