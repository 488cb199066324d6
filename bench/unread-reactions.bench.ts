// Read markers and reactions cost (almost) nothing to read: GET /chats with each chat's unread count against
// GET /chats without the counts, for a reader in 50 chats of long histories; and a page of 50 messages that all
// carry reactions against a page without any. Same run, turns alternated, each server a child process.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { medianMs } from './history.bench.ts';
import { runLoad, type LoadResult } from './load.ts';
import { seedChats, type SeededChats } from './seed-chats.ts';
import { startChild } from './server-process.ts';

const CHAT_SERVER = new URL('./chat-server.ts', import.meta.url).pathname;
const WITHOUT_COUNTS = new URL('./chats-without-counts.ts', import.meta.url).pathname;
const TURNS = 3;

/** One timed run, with the server's CPU time per request: on a machine shared with other load, req/s wanders, CPU per request much less. */
export interface Measured {
  load: LoadResult;
  cpuMicrosPerRequest: number;
}

export interface PairRow {
  scenario: string;
  ours: Measured[];
  baseline: Measured[];
  baselineKind: string;
}

export interface UnreadBenchResult {
  seeded: SeededChats & { chats: number; messagesPerChat: number };
  rows: PairRow[];
  /** Median ms, in SQLite alone, for the reader's 50 counts: the kept column against counting at read time. */
  keptMs: number;
  countedMs: number;
  unread: { min: number; max: number; total: number };
}

async function login(url: string, user: { login: string; password: string }): Promise<Record<string, string>> {
  const res = await fetch(`${url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
  if (res.status !== 201) throw new Error(`login: ${res.status} ${await res.text()}`);
  return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
}

/** One timed run of `path` on a fresh child of `module`, after a 1 s warm-up; the answer is checked first. */
async function measure(module: string, db: string, user: { login: string; password: string }, path: string, seconds: number): Promise<Measured> {
  const server = await startChild(module, { db });
  try {
    const headers = await login(server.url, user);
    const check = await fetch(`${server.url}${path}`, { headers });
    if (check.status !== 200) throw new Error(`${path}: ${check.status} ${await check.text()}`);
    await runLoad({ url: `${server.url}${path}`, headers, connections: 10, durationSeconds: 1 });
    const before = (await server.stats()).cpuMicros;
    const load = await runLoad({ url: `${server.url}${path}`, headers, connections: 10, durationSeconds: seconds });
    const after = (await server.stats()).cpuMicros;
    return { load, cpuMicrosPerRequest: (after - before) / Math.max(load.total, 1) };
  } finally {
    await server.stop();
  }
}

export async function runUnreadBench(options: { durationSeconds?: number; chats?: number; messagesPerChat?: number } = {}): Promise<UnreadBenchResult> {
  const seconds = options.durationSeconds ?? 5;
  const chats = options.chats ?? 50;
  const messagesPerChat = options.messagesPerChat ?? 20_000;
  const dir = mkdtempSync(join(tmpdir(), 'bench-unread-'));
  try {
    const path = join(dir, 'chats.db');
    const seeded = await seedChats(path, { chats, messagesPerChat, pageSize: 50 });
    const db = new Database(path, { readonly: true });
    const readerId = db.prepare("SELECT id FROM users WHERE login = 'reader'").pluck().get() as string;
    const kept = db.prepare('SELECT chat_id AS chatId, last_read_id AS lastReadId, unread_count AS n FROM chat_members WHERE user_id = ?');
    const count = db.prepare("SELECT count(*) FROM messages m WHERE m.chat_id = ? AND m.id > coalesce(?, '') AND m.author_id <> ?").pluck();
    const markers = kept.all(readerId) as { chatId: string; lastReadId: string | null; n: number }[];
    for (const marker of markers) {
      if (count.get(marker.chatId, marker.lastReadId, readerId) !== marker.n) throw new Error(`kept count of ${marker.chatId} is not exact`);
    }
    const keptMs = medianMs(() => kept.all(readerId));
    const countedMs = medianMs(() => { for (const marker of markers) count.get(marker.chatId, marker.lastReadId, readerId); });
    db.close();
    const counts = markers.map((marker) => marker.n);
    const rows: PairRow[] = [
      { scenario: `GET /chats?limit=50 (reader in ${chats} chats of ${messagesPerChat.toLocaleString('en')} messages)`, ours: [], baseline: [], baselineKind: 'the same server with GET /chats as before read markers (no counts)' },
      { scenario: `GET /chats/{id}/messages?limit=50, every message with ${seeded.reactionsPerMessage} reactions`, ours: [], baseline: [], baselineKind: 'the same server, the same page of a chat without reactions' },
      { scenario: `the same page with reactions (control: same bytes)`, ours: [], baseline: [], baselineKind: 'the same server, a page without reactions whose texts are longer by as many bytes (emoji included)' },
    ];
    for (let turn = 0; turn < TURNS; turn += 1) {
      rows[0]!.ours.push(await measure(CHAT_SERVER, path, seeded.reader, '/chats?limit=50', seconds));
      rows[0]!.baseline.push(await measure(WITHOUT_COUNTS, path, seeded.reader, '/chats?limit=50', seconds));
      rows[1]!.ours.push(await measure(CHAT_SERVER, path, seeded.writer, `/chats/${seeded.reactedChatId}/messages?limit=50`, seconds));
      rows[1]!.baseline.push(await measure(CHAT_SERVER, path, seeded.writer, `/chats/${seeded.plainChatId}/messages?limit=50`, seconds));
      rows[2]!.ours.push(rows[1]!.ours.at(-1)!);
      rows[2]!.baseline.push(await measure(CHAT_SERVER, path, seeded.writer, `/chats/${seeded.paddedChatId}/messages?limit=50`, seconds));
    }
    return {
      seeded: { ...seeded, chats, messagesPerChat },
      rows,
      keptMs,
      countedMs,
      unread: { min: Math.min(...counts), max: Math.max(...counts), total: counts.reduce((a, b) => a + b, 0) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mean = (runs: Measured[], pick: (run: Measured) => number): number => runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
const rps = (run: Measured): number => run.load.requestsPerSecond;
const cpu = (run: Measured): number => run.cpuMicrosPerRequest;

export function formatUnreadBench(result: UnreadBenchResult): string {
  const { seeded, unread } = result;
  return [
    '| scenario | ours req/s (per turn) | ours p50 / p99 ms | ours CPU µs/req | baseline req/s (per turn) | baseline p50 / p99 ms | baseline CPU µs/req | ours / baseline req/s | ours / baseline by CPU | errors | baseline |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...result.rows.map((row) => {
      const cells = (runs: Measured[]) => `${mean(runs, rps).toFixed(0)} (${runs.map((run) => rps(run).toFixed(0)).join(', ')}) | ${mean(runs, (run) => run.load.p50Ms).toFixed(1)} / ${mean(runs, (run) => run.load.p99Ms).toFixed(1)} | ${mean(runs, cpu).toFixed(0)}`;
      const ratio = mean(row.ours, rps) / mean(row.baseline, rps);
      // Requests per CPU-second, ours against the baseline's: the throughput ratio on an otherwise idle machine.
      const byCpu = mean(row.baseline, cpu) / mean(row.ours, cpu);
      const errors = [...row.ours, ...row.baseline].reduce((sum, run) => sum + run.load.errors + run.load.non2xx, 0);
      return `| ${row.scenario} | ${cells(row.ours)} | ${cells(row.baseline)} | **${ratio.toFixed(2)}x** | **${byCpu.toFixed(2)}x** | ${errors} | ${row.baselineKind} |`;
    }),
    '',
    `Seeded ${seeded.totalMessages.toLocaleString('en')} messages in ${seeded.seedSeconds.toFixed(1)} s. The reader's unread counts run from ${unread.min.toLocaleString('en')} to ${unread.max.toLocaleString('en')} (${unread.total.toLocaleString('en')} in all; every fifth chat never read).`,
    `The reader's ${seeded.chats} counts in SQLite alone (median of 7): kept by triggers ${result.keptMs.toFixed(3)} ms; counted at read time (the others' messages after each marker, on messages_by_chat) ${result.countedMs.toFixed(1)} ms, which every GET /chats would pay.`,
    `Goal: each ratio at least 0.8x. ${TURNS} turns of each side, alternated, 10 connections; "by CPU" is the server's CPU time per request (user + system), which other load on a shared machine moves far less than req/s.`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  console.log(formatUnreadBench(await runUnreadBench({ durationSeconds: Number(process.env['BENCH_SECONDS'] ?? 5) })));
}
