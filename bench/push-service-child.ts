// The push service of bench/push.bench.ts, in a process of its own so that receiving 1,000 pushes does not share
// the event loop of the load generator (whose latencies it would add to): plain node:http on loopback answering
// 201, counting what arrives by path. The parent says `reset`; the child says when every subscription has one.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type PushServiceMessage = { type: 'listening'; origin: string } | { type: 'all'; arrived: number; distinct: number; atMs: number };
export type PushServiceCommand = { type: 'reset'; expected: number } | { type: 'count' };

let expected = Infinity;
let arrived = 0;
let seen = new Set<string>();

const tell = (message: PushServiceMessage | { type: 'count'; arrived: number; distinct: number }): void => void process.send?.(message);

const service = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(201).end();
    arrived += 1;
    seen.add(req.url ?? '');
    if (seen.size === expected && arrived === seen.size) tell({ type: 'all', arrived, distinct: seen.size, atMs: performance.timeOrigin + performance.now() });
  });
});

process.on('message', (command: PushServiceCommand) => {
  if (command.type === 'reset') {
    expected = command.expected;
    arrived = 0;
    seen = new Set();
  } else tell({ type: 'count', arrived, distinct: seen.size });
});
process.on('disconnect', () => process.exit(0));
service.listen(0, '127.0.0.1', () => tell({ type: 'listening', origin: `http://127.0.0.1:${(service.address() as AddressInfo).port}` }));
