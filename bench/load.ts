// A thin wrapper over autocannon: one bounded run against loopback, reduced to the figures we report.
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The same percentiles from every 2xx reply's own time, unrounded (autocannon's are whole milliseconds). */
  exactP50Ms: number;
  exactP99Ms: number;
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
  /** Ends the run early when it settles (the run still ends after durationSeconds at the latest). */
  until?: Promise<unknown>;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:/.test(options.url)) throw new Error(`benchmarks talk only to loopback: ${options.url}`);
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({
      url: options.url,
      connections: options.connections ?? 10,
      ...(options.amount ? { amount: options.amount } : { duration: options.durationSeconds ?? 5 }),
      method: options.method ?? 'GET',
      headers: options.headers,
      body: options.body,
      requests: options.requests,
    } as autocannon.Options, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status >= 200 && status < 300) times.push(ms);
    });
    void options.until?.finally(() => instance.stop()).catch(() => undefined);
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    exactP50Ms: percentile(times, 0.5),
    exactP99Ms: percentile(times, 0.99),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

function percentile(values: number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}
