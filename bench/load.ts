// A thin wrapper over autocannon: one bounded run against loopback, reduced to the figures we report.
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  total: number;
}

export interface LoadOptions {
  url: string;
  connections?: number;
  durationSeconds?: number;
  amount?: number;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** For bodies that must differ per request (e.g. a new message text). */
  requests?: autocannon.Request[];
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:/.test(options.url)) throw new Error(`benchmarks talk only to loopback: ${options.url}`);
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? 10,
    ...(options.amount ? { amount: options.amount } : { duration: options.durationSeconds ?? 5 }),
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    requests: options.requests,
  } as autocannon.Options);
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}
