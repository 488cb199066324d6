// Memory of idle streams as the capacity bench holds them (bench/capacity.md): N seeded users, one stream each,
// opened against a compiled server child; its RSS and V8 heap spaces before and after, RSS per stream, and the event
// loop's delay over two ping ticks with them idle.
//   node --import tsx bench/idle-streams.ts [N] [node flags...]      e.g. 10000 --max-semi-space-size=16
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedCapacity } from './capacity-seed.ts';
import { openStream } from './events.bench.ts';
import { startChild, type ServerChild } from './server-process.ts';

const [count = '10000', ...nodeFlags] = process.argv.slice(2);
const users = Number(count);
const dir = mkdtempSync(join(tmpdir(), 'bench-idle-'));
const roster = seedCapacity(join(dir, 'idle.db'), { users, teamSize: 50, chatsPerTeam: 3, historyPerChat: 5 });
const server: ServerChild = await startChild(new URL('./chat-server.ts', import.meta.url).pathname, { db: join(dir, 'idle.db'), maxStreams: users }, nodeFlags);
const show = async (label: string): Promise<number> => {
  const stats = await server.stats();
  const spaces = (await server.heapSpaces()).filter((space) => space.size > 2 ** 20);
  console.log(`${label}: RSS ${(stats.rssBytes / 2 ** 20).toFixed(1)} MiB; ${spaces.map((s) => `${s.name} ${(s.size / 2 ** 20).toFixed(1)} / ${(s.used / 2 ** 20).toFixed(1)}`).join(', ')} MiB (size / used)`);
  return stats.rssBytes;
};
const sockets: Socket[] = [];
try {
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = await show('before');
  for (let i = 0; i < users; i += 200) sockets.push(...await Promise.all(roster.users.slice(i, i + 200).map((user) => openStream(server.url, user.token, () => {}))));
  const after = await show(`${users} streams open`);
  console.log(`RSS per stream: ${((after - before) / users / 1024).toFixed(1)} KiB`);
  // Two ping ticks (every 15 s) with the streams idle: how long the loop was held, pings and session checks included.
  await server.resetStats();
  await new Promise((resolve) => setTimeout(resolve, 31_000));
  const idle = await server.stats();
  console.log(`event-loop delay over 31 s idle: p99 ${idle.eventLoopP99Ms.toFixed(1)} ms, max ${idle.eventLoopMaxMs.toFixed(1)} ms`);
} finally {
  for (const socket of sockets) socket.destroy();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
