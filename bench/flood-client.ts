// A registration flood in a process of its own, so its client work never delays the login being timed.
import autocannon from 'autocannon';

export interface FloodSummary {
  requests: number;
  created: number;
  busy: number;
  other: number;
  timeouts: number;
  p50Ms: number;
}

const [url, connections, seconds, password] = process.argv.slice(2) as [string, string, string, string];
let next = 0;
const result = await autocannon({
  url,
  connections: Number(connections),
  duration: Number(seconds),
  // As in the report: clients that give up after 25 s.
  timeout: 25,
  requests: [{
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    setupRequest: (request: autocannon.Request) => ({ ...request, body: JSON.stringify({ login: `flood${next++}`, password }) }),
  }],
} as autocannon.Options);
const summary: FloodSummary = {
  requests: result.requests.total,
  created: result['2xx'],
  busy: result['5xx'],
  other: result['4xx'] + result['3xx'] + result['1xx'],
  timeouts: result.timeouts + result.errors,
  p50Ms: result.latency.p50,
};
process.send!(summary);
