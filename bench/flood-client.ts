// A flood of POSTs in a process of its own, so its client work never delays the login being timed.
// Arguments: url connections seconds password [login]. Without a login every request names a new one
// (flood0, flood1, ...); with it every request sends the same credentials. The message 'stop' ends it early.
import autocannon from 'autocannon';

export interface FloodSummary {
  requests: number;
  created: number;
  busy: number;
  other: number;
  timeouts: number;
  p50Ms: number;
  /** Answers by status code, e.g. { '201': 12, '429': 3400 }. */
  statuses: Record<string, number>;
}

const [url, connections, seconds, password, login] = process.argv.slice(2) as [string, string, string, string, string | undefined];
let next = 0;
const instance = autocannon({
  url,
  connections: Number(connections),
  duration: Number(seconds),
  // As in the report: clients that give up after 25 s.
  timeout: 25,
  requests: [{
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    setupRequest: (request: autocannon.Request) => ({ ...request, body: JSON.stringify({ login: login ?? `flood${next++}`, password }) }),
  }],
} as autocannon.Options, (error, result) => {
  if (error) throw error;
  const summary: FloodSummary = {
    requests: result.requests.total,
    created: result['2xx'],
    busy: result['5xx'],
    other: result['4xx'] + result['3xx'] + result['1xx'],
    timeouts: result.timeouts + result.errors,
    p50Ms: result.latency.p50,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats?.count ?? 0])),
  };
  // Then let go of the channel, so the process ends once the parent has the summary.
  process.send!(summary, () => process.disconnect());
});
process.on('message', (message) => {
  if (message === 'stop') instance.stop();
});
