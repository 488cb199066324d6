// The access log (one line per exchange) and error lines, as text or as one JSON object a line.

export type LogFormat = 'text' | 'json';

export interface ExchangeRecord {
  time: number;
  requestId: string;
  method: string;
  /** The matched route pattern, or "unmatched". */
  route: string;
  /** The request target as sent: path and query. */
  path: string;
  /** The status sent; 0 when the client left before any answer. */
  status: number;
  /** Body bytes sent (not the header section). */
  bytes: number;
  durationMs: number;
  /** The authenticated caller, when the request had one. */
  userId?: string;
}

export function formatAccessLine(format: LogFormat, record: ExchangeRecord): string {
  const durationMs = Math.round(record.durationMs * 10) / 10;
  if (format === 'json') {
    const level = record.status >= 500 ? 'error' : 'info';
    const { time, userId, ...rest } = record;
    return `${JSON.stringify({ time: new Date(time).toISOString(), level, ...rest, durationMs, ...(userId ? { userId } : {}) })}\n`;
  }
  const user = record.userId ? ` user=${record.userId}` : '';
  return `${new Date(record.time).toISOString()} ${record.requestId} ${record.method} ${record.path} ${record.status} ${record.bytes}B ${durationMs.toFixed(1)}ms${user}\n`;
}

/** An unexpected error: its stack for the operator, with the request id the client saw in X-Request-Id. */
export function formatErrorLine(format: LogFormat, time: number, requestId: string, error: unknown): string {
  const stack = (error as Error)?.stack ?? String(error);
  if (format === 'json') {
    return `${JSON.stringify({ time: new Date(time).toISOString(), level: 'error', requestId, message: (error as Error)?.message ?? String(error), stack })}\n`;
  }
  // Every line of the stack carries the id, so grep finds the whole error.
  const prefix = `${new Date(time).toISOString()} ${requestId} `;
  return stack.split('\n').map((line) => `${prefix}${line}\n`).join('');
}
