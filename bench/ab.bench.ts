// A/B of one lever: our server at two commits (or a commit and this work tree), on the same database file,
// in alternating rounds, with server CPU per request; the figures of bench/RESULTS.md's lever table. Usage:
//   node --import tsx bench/ab.bench.ts <before> <after|.> page,chat,health,search,post [rounds] [seconds]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChatFixture } from './chat-fixture.ts';
import { runLoad, type LoadOptions } from './load.ts';
import { startChild, type ServerChild } from './server-process.ts';

const root = new URL('..', import.meta.url).pathname;
const [before = 'HEAD~1', after = '.', which = 'page', roundsText = '5', secondsText = '2'] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'bench-ab-'));
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A tree with the commit's files and this tree's node_modules; '.' is this work tree as it is. */
function tree(commit: string, name: string): string {
  if (commit === '.') return root;
  const path = join(dir, name);
  mkdirSync(path);
  execFileSync('sh', ['-c', `git -C "${root}" archive "${commit}" | tar -x -C "${path}"`]);
  symlinkSync(join(root, 'node_modules'), join(path, 'node_modules'));
  return path;
}

try {
  const trees = { before: tree(before, 'before'), after: tree(after, 'after') };
  const db = join(dir, 'chat.db');
  const seeder = await startChild(join(trees.before, 'bench/chat-server.ts'), { db });
  const fixture = await createChatFixture(seeder.url, { messages: 1000, parallel: 50 });
  await seeder.stop();
  const servers: Record<'before' | 'after', ServerChild> = {
    before: await startChild(join(trees.before, 'bench/chat-server.ts'), { db }),
    after: await startChild(join(trees.after, 'bench/chat-server.ts'), { db }),
  };
  const chat = `/chats/${fixture.chatId}`;
  const scenarios: Record<string, (url: string) => LoadOptions> = {
    health: (url) => ({ url: `${url}/health` }),
    chat: (url) => ({ url: `${url}${chat}`, headers: fixture.headers }),
    page: (url) => ({ url: `${url}${chat}/messages?limit=50`, headers: fixture.headers }),
    search: (url) => ({ url: `${url}/search?q=fox`, headers: fixture.headers }),
    post: (url) => ({ url: `${url}${chat}/messages`, method: 'POST', headers: { ...fixture.headers, 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: 'a message posted under load' } }) }),
  };
  try {
    for (const name of which.split(',')) {
      const turns: Record<string, { rps: number; cpu: number }[]> = { before: [], after: [] };
      for (const side of ['before', 'after'] as const) await runLoad({ ...scenarios[name]!(servers[side].url), durationSeconds: 1, connections: 10 });
      for (let round = 0; round < Number(roundsText); round += 1) {
        for (const side of (round % 2 ? ['after', 'before'] : ['before', 'after']) as ('before' | 'after')[]) {
          const cpuBefore = (await servers[side].stats()).cpuMicros;
          const result = await runLoad({ ...scenarios[name]!(servers[side].url), durationSeconds: Number(secondsText), connections: 10 });
          if (result.errors + result.non2xx > 0) throw new Error(`${side}: ${result.errors} errors, ${result.non2xx} non-2xx`);
          turns[side]!.push({ rps: result.requestsPerSecond, cpu: ((await servers[side].stats()).cpuMicros - cpuBefore) / result.total });
        }
      }
      const line = (side: string): string => `${median(turns[side]!.map((t) => t.rps)).toFixed(0)} req/s, ${median(turns[side]!.map((t) => t.cpu)).toFixed(0)} µs CPU/req`;
      const ratio = median(turns['after']!.map((t) => t.rps)) / median(turns['before']!.map((t) => t.rps));
      const cpuRatio = median(turns['after']!.map((t) => t.cpu)) / median(turns['before']!.map((t) => t.cpu));
      console.log(`${name}: before (${before}) ${line('before')} | after (${after}) ${line('after')} | req/s ${ratio.toFixed(2)}x, CPU/req ${cpuRatio.toFixed(2)}x`);
    }
  } finally {
    await servers.before.stop();
    await servers.after.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
