// A page of chat history costs about the same at 1k and at 1M messages in the chat: req/s and p99 of
// GET /chats/{id}/messages?limit=50 at both sizes, the query plans, and what meta.total's count costs.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseQuery } from '../src/parsers/query.ts';
import { historyPage, MESSAGE_FIELDS } from '../src/resources/messages/history.ts';
import { historySource } from '../src/storage/sqlite/collections.ts';
import { buildPageSql } from '../src/storage/sqlite/list-page.ts';
import { runLoad, type LoadResult } from './load.ts';
import { seedHistory, type SeededHistory } from './seed-history.ts';
import { startChild } from './server-process.ts';

export interface HistoryScenario {
  name: string;
  /** The query string after `?`; `{middle}` stands for the id of the message in the middle. */
  query: string;
}

export const HISTORY_SCENARIOS: readonly HistoryScenario[] = [
  { name: 'first page (default order)', query: 'limit=50' },
  { name: 'newest page by time', query: 'limit=50&sort=-createdAt' },
  { name: 'newest page by id', query: 'limit=50&sort%5Bid%5D=DESC' },
  { name: 'keyset page before the middle', query: 'limit=50&before={middle}' },
];

export interface HistoryRow {
  size: number;
  scenario: string;
  load: LoadResult;
}

export interface QueryPlan {
  scenario: string;
  page: string[];
  total: string[];
}

export interface HistoryBenchResult {
  rows: HistoryRow[];
  seedSeconds: Record<number, number>;
  /** Plans at the largest size, for every scenario. */
  plans: QueryPlan[];
  /** Median milliseconds at the largest size: count(*) of the chat against the kept count. */
  countMs: number;
  keptCountMs: number;
  /** Per scenario: req/s at the largest size / req/s at the smallest, and p99 largest / smallest. */
  ratios: { scenario: string; throughput: number; p99: number }[];
}

const SIZES = [1_000, 1_000_000];

function queryOf(scenario: HistoryScenario, seeded: SeededHistory): string {
  return scenario.query.replace('{middle}', seeded.middleId);
}

function explain(db: Database.Database, sql: string, params: unknown[]): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail);
}

/** The statements GET /chats/{id}/messages runs for a query string (the scope of history.ts, unbounded). */
function plansFor(db: Database.Database, seeded: SeededHistory): QueryPlan[] {
  return HISTORY_SCENARIOS.map((scenario) => {
    const parsed = parseQuery(queryOf(scenario, seeded), MESSAGE_FIELDS, { reserved: ['after', 'before'] });
    // Exactly the query listMessages (src/resources/messages/history.ts) asks the SQLite store for, as its source runs it.
    const { query, bounds } = historyPage(parsed, parsed.extra.get('after'), parsed.extra.get('before'));
    const sql = buildPageSql(historySource(seeded.chatId, bounds), query);
    return { scenario: scenario.name, page: explain(db, sql.page.sql, sql.page.params), total: explain(db, sql.total.sql, sql.total.params) };
  });
}

/** The median of `times` timed runs of `run`, in milliseconds. */
export function medianMs(run: () => void, times = 7): number {
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[Math.floor(times / 2)]!;
}

export async function runHistoryBench(options: { durationSeconds?: number; sizes?: number[] } = {}): Promise<HistoryBenchResult> {
  const duration = options.durationSeconds ?? 5;
  const sizes = options.sizes ?? SIZES;
  const rows: HistoryRow[] = [];
  const seedSeconds: Record<number, number> = {};
  let plans: QueryPlan[] = [];
  let countMs = 0;
  let keptCountMs = 0;
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-history-'));
    try {
      const path = join(dir, 'chat.db');
      const seeded = await seedHistory(path, size);
      seedSeconds[size] = seeded.seedSeconds;
      const server = await startChild(new URL('./chat-server.ts', import.meta.url).pathname, { db: path });
      try {
        const session = await fetch(`${server.url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: seeded.login, password: seeded.password }) });
        const { token } = (await session.json()) as { token: string };
        const headers = { authorization: `Bearer ${token}` };
        for (const scenario of HISTORY_SCENARIOS) {
          const url = `${server.url}/chats/${seeded.chatId}/messages?${queryOf(scenario, seeded)}`;
          const check = await fetch(url, { headers });
          if (check.status !== 200) throw new Error(`${scenario.name}: ${check.status} ${await check.text()}`);
          await runLoad({ url, headers, connections: 10, durationSeconds: 1 });
          rows.push({ size, scenario: scenario.name, load: await runLoad({ url, headers, connections: 10, durationSeconds: duration }) });
        }
      } finally {
        await server.stop();
      }
      if (size === Math.max(...sizes)) {
        const db = new Database(path, { readonly: true });
        plans = plansFor(db, seeded);
        const count = db.prepare('SELECT count(*) FROM messages m WHERE m.chat_id = ?').pluck();
        const kept = db.prepare('SELECT message_count FROM chat_stats WHERE chat_id = ?').pluck();
        countMs = medianMs(() => count.get(seeded.chatId));
        keptCountMs = medianMs(() => kept.get(seeded.chatId));
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const small = Math.min(...sizes);
  const large = Math.max(...sizes);
  const ratios = HISTORY_SCENARIOS.map(({ name }) => {
    const at = (size: number) => rows.find((row) => row.size === size && row.scenario === name)!.load;
    return { scenario: name, throughput: at(large).requestsPerSecond / at(small).requestsPerSecond, p99: Math.max(at(large).p99Ms, 1) / Math.max(at(small).p99Ms, 1) };
  });
  return { rows, seedSeconds, plans, countMs, keptCountMs, ratios };
}

export function formatHistoryBench(result: HistoryBenchResult): string {
  const lines = [
    '| messages in the chat | scenario | req/s | p50 ms | p99 ms | errors |',
    '|---:|---|---:|---:|---:|---:|',
    ...result.rows.map(({ size, scenario, load }) =>
      `| ${size.toLocaleString('en')} | ${scenario} | ${load.requestsPerSecond.toFixed(0)} | ${load.p50Ms} | ${load.p99Ms} | ${load.errors + load.non2xx} |`),
    '',
    '| scenario | req/s 1M / 1k | p99 1M / 1k |',
    '|---|---:|---:|',
    ...result.ratios.map(({ scenario, throughput, p99 }) => `| ${scenario} | ${throughput.toFixed(2)} | ${p99.toFixed(2)} |`),
    '',
    `Seeding (one transaction, FTS5 and chat_stats triggers included): ${Object.entries(result.seedSeconds).map(([size, s]) => `${Number(size).toLocaleString('en')} in ${s.toFixed(1)} s`).join(', ')}.`,
    `meta.total at the largest size: count(*) of the chat ${result.countMs.toFixed(1)} ms, chat_stats.message_count ${result.keptCountMs.toFixed(3)} ms (median of 7).`,
    'An unfiltered page, keyset pages included, reads the kept count; a filtered page still count(*)s what matches, O(n) in the chat.',
    '',
    'Query plans at the largest size:',
  ];
  for (const plan of result.plans) {
    const usesIndex = plan.page.some((detail) => /INDEX messages_by_chat/.test(detail));
    lines.push(`- ${plan.scenario}: page \`${plan.page.join('; ')}\`${usesIndex ? ' (uses the messages_by_chat index family)' : ' (NO messages_by_chat index!)'}; total \`${plan.total.join('; ')}\``);
  }
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  console.log(formatHistoryBench(await runHistoryBench()));
}
