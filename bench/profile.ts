// Profiles our server on one scenario of bench/peers.bench.ts (node --cpu-prof in the server's child) and
// prints where the time goes: self time by function and by file. Usage:
//   node --import tsx bench/profile.ts page|chat|health|search|post [seconds]   (PROFILE_KEEP=file keeps the profile)
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChatFixture, fixtureRequests } from './chat-fixture.ts';
import { runLoad } from './load.ts';
import { startChild } from './server-process.ts';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount: number; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const scenario = process.argv[2] ?? 'page';
const seconds = Number(process.argv[3] ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
try {
  const db = join(dir, 'chat.db');
  const seeder = await startChild(new URL('./chat-server.ts', import.meta.url).pathname, { db });
  const fixture = await createChatFixture(seeder.url, { messages: 1000, parallel: 50 });
  await seeder.stop();
  const server = await startChild(new URL('./chat-server.ts', import.meta.url).pathname, { db }, ['--cpu-prof', '--cpu-prof-interval=200', `--cpu-prof-dir=${dir}`]);
  const requests = fixtureRequests(server.url, fixture);
  const request = requests[scenario as keyof typeof requests];
  const result = await runLoad({ ...request, durationSeconds: seconds, connections: 10 });
  await server.stop();
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))!;
  // PROFILE_KEEP=path keeps the profile (for Chrome DevTools, or line ticks: its nodes' positionTicks).
  if (process.env['PROFILE_KEEP']) copyFileSync(join(dir, file), process.env['PROFILE_KEEP']);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
  const total = profile.nodes.reduce((sum, node) => sum + node.hitCount, 0);
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const node of profile.nodes) {
    const where = node.callFrame.url.replace(/^.*\/(src|node_modules|bench)\//, '$1/').replace(/^node:/, 'node:');
    const key = `${node.callFrame.functionName || '(anonymous)'} ${where}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + node.hitCount);
    const fileKey = where || node.callFrame.functionName;
    byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + node.hitCount);
  }
  // Inclusive time of our own functions (src/): self plus everything they call, counted once per stack.
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const inclusive = new Map<string, number>();
  const walk = (node: ProfileNode, onStack: Set<string>): number => {
    const where = node.callFrame.url.replace(/^.*\/src\//, 'src/');
    const key = where.startsWith('src/') ? `${node.callFrame.functionName || '(anonymous)'} ${where}` : undefined;
    const fresh = key !== undefined && !onStack.has(key);
    if (fresh) onStack.add(key!);
    let hits = node.hitCount;
    for (const child of node.children ?? []) hits += walk(byId.get(child)!, onStack);
    if (fresh) {
      inclusive.set(key!, (inclusive.get(key!) ?? 0) + hits);
      onStack.delete(key!);
    }
    return hits;
  };
  walk(profile.nodes[0]!, new Set());
  const top = (map: Map<string, number>, n: number): string => [...map].sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([key, hits]) => `${(100 * hits / total).toFixed(1).padStart(5)} %  ${key}`).join('\n');
  console.log(`${scenario}: ${result.requestsPerSecond.toFixed(0)} req/s over ${seconds} s, ${total} samples\n\nSelf time by function:\n${top(byFunction, 30)}\n\nBy file:\n${top(byFile, 20)}\n\nInclusive, our functions:\n${top(inclusive, 40)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
