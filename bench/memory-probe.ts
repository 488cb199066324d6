// What the server's memory is made of under load: RSS, V8's heap and external memory before, during and after a
// few seconds of each scenario of the peers bench (`node --import tsx bench/memory-probe.ts [seconds]`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChatFixture, fixtureRequests } from './chat-fixture.ts';
import { runLoad } from './load.ts';
import { startChild, type ChildStats } from './server-process.ts';

const seconds = Number(process.argv[2] ?? 5);
const mib = (bytes: number): string => (bytes / 1048576).toFixed(1);
const line = (label: string, stats: ChildStats): string =>
  `${label.padEnd(28)} RSS ${mib(stats.rssBytes).padStart(6)} MiB, heap ${mib(stats.heapTotalBytes).padStart(6)} MiB, external ${mib(stats.externalBytes).padStart(6)} MiB`;

const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
try {
  const db = join(dir, 'chat.db');
  const module = new URL('./chat-server.ts', import.meta.url).pathname;
  const seeder = await startChild(module, { db });
  const fixture = await createChatFixture(seeder.url, { messages: 1000, parallel: 50 });
  await seeder.stop();
  // NODE_FLAGS: flags for the server's node, e.g. --max-semi-space-size=8.
  const server = await startChild(module, { db }, (process.env['NODE_FLAGS'] ?? '').split(' ').filter(Boolean));
  console.log(line('idle', await server.stats()));
  const scenarios = fixtureRequests(server.url, fixture);
  for (const [name, request] of Object.entries(scenarios)) {
    const before = (await server.stats()).cpuMicros;
    const result = await runLoad({ ...request, durationSeconds: seconds, connections: 10 });
    const stats = await server.stats();
    console.log(`${line(`after ${name}`, stats)}, ${result.requestsPerSecond.toFixed(0)} req/s, ${((stats.cpuMicros - before) / result.total).toFixed(0)} µs CPU/req`);
    console.log(`  ${(await server.heapSpaces()).filter((space) => space.size > 1048576).map((space) => `${space.name} ${mib(space.size)}/${mib(space.used)}`).join(', ')}`);
  }
  await server.stop();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
