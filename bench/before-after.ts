// Compares this tree's server with another tree's (an earlier commit, unpacked elsewhere) on the two hot scenarios of
// `make bench`: the page of 50 and POST message. Rounds alternate between the two, on copies of one seeded database,
// and the medians are compared, so drift of a shared machine falls on both sides. Besides req/s, each server's own CPU
// time per request is reported: on a machine shared with other work it moves far less than the request rate.
//
//   git archive <commit> | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/node_modules
//   node --import tsx bench/before-after.ts /tmp/before [rounds] [seconds]
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createChatFixture } from './chat-fixture.ts';
import { runLoad, type LoadOptions } from './load.ts';
import { startChild } from './server-process.ts';

const CONNECTIONS = 10;

interface Side {
  name: string;
  module: string;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<void> {
  const [beforeTree, roundsText = '5', secondsText = '5'] = process.argv.slice(2);
  if (beforeTree === undefined) throw new Error('usage: node --import tsx bench/before-after.ts <before-tree> [rounds] [seconds]');
  const rounds = Number(roundsText);
  const seconds = Number(secondsText);
  const sides: Side[] = [
    { name: 'before', module: join(resolve(beforeTree), 'bench', 'chat-server.ts') },
    { name: 'after', module: new URL('./chat-server.ts', import.meta.url).pathname },
  ];
  const dir = mkdtempSync(join(tmpdir(), 'before-after-'));
  try {
    // Seeded by the "before" server: the schema is the same on both sides, and the older one must read it.
    const seedPath = join(dir, 'seed.db');
    const seeder = await startChild(sides[0]!.module, { db: seedPath });
    const fixture = await createChatFixture(seeder.url, { messages: 1000, parallel: 50 }).finally(() => seeder.stop());
    const chatPath = `/chats/${fixture.chatId}`;
    const scenarios: { name: string; load: (url: string) => Omit<LoadOptions, 'durationSeconds'> }[] = [
      { name: 'GET /chats/{id}/messages?limit=50 (of 1000)', load: (url) => ({ url: `${url}${chatPath}/messages?limit=50`, headers: fixture.headers, connections: CONNECTIONS }) },
      {
        name: 'POST /chats/{id}/messages',
        load: (url) => ({
          url: `${url}${chatPath}/messages`, method: 'POST', connections: CONNECTIONS,
          headers: { ...fixture.headers, 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: 'a message posted under load' } }),
        }),
      },
    ];
    const samples = new Map<string, number[]>();
    const cpu = new Map<string, number[]>();
    let copies = 0;
    for (let round = 0; round < rounds; round += 1) {
      // Alternate which side goes first, so neither always runs on a warmer (or busier) machine.
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        for (const scenario of scenarios) {
          const db = join(dir, `copy-${copies += 1}.db`);
          copyFileSync(seedPath, db);
          const server = await startChild(side.module, { db });
          try {
            const config = scenario.load(server.url);
            await runLoad({ ...config, durationSeconds: 1 });
            const cpuBefore = (await server.stats()).cpuMicros;
            const result = await runLoad({ ...config, durationSeconds: seconds });
            const cpuPerRequest = ((await server.stats()).cpuMicros - cpuBefore) / result.total;
            if (result.errors + result.non2xx > 0) throw new Error(`${side.name} ${scenario.name}: ${result.errors} errors, ${result.non2xx} non-2xx`);
            const key = `${scenario.name}\u0000${side.name}`;
            samples.set(key, [...samples.get(key) ?? [], result.requestsPerSecond]);
            cpu.set(key, [...cpu.get(key) ?? [], cpuPerRequest]);
            process.stderr.write(`round ${round + 1} ${side.name} ${scenario.name}: ${result.requestsPerSecond.toFixed(0)} req/s, ${cpuPerRequest.toFixed(0)} µs CPU/request\n`);
          } finally {
            await server.stop();
            rmSync(db, { force: true });
          }
        }
      }
    }
    const lines = [
      `${rounds} alternating rounds, ${CONNECTIONS} connections, ${seconds} s each after a 1 s warm-up, each server in its own child on a copy of one seeded database (synchronous=FULL).`,
      '',
      'Ratios are medians of the ratios within each round (the two sides ran minutes apart at most), so > 1 is better for after in both.',
      '',
      '| scenario | before req/s (median) | after req/s (median) | after / before, req/s | before µs CPU/req (median) | after µs CPU/req (median) | before / after, CPU per request | req/s per round, before; after |',
      '|---|---:|---:|---:|---:|---:|---:|---|',
    ];
    for (const scenario of scenarios) {
      const before = samples.get(`${scenario.name}\u0000before`)!;
      const after = samples.get(`${scenario.name}\u0000after`)!;
      const cpuBefore = cpu.get(`${scenario.name}\u0000before`)!;
      const cpuAfter = cpu.get(`${scenario.name}\u0000after`)!;
      const rateRatio = median(after.map((value, round) => value / before[round]!));
      const cpuRatio = median(cpuAfter.map((value, round) => cpuBefore[round]! / value));
      const list = (values: number[]): string => values.map((value) => value.toFixed(0)).join(', ');
      lines.push(`| ${scenario.name} | ${median(before).toFixed(0)} | ${median(after).toFixed(0)} | **${rateRatio.toFixed(2)}x** | ${median(cpuBefore).toFixed(0)} | ${median(cpuAfter).toFixed(0)} | **${cpuRatio.toFixed(2)}x** | ${list(before)}; ${list(after)} |`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
