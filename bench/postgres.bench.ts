// PostgreSQL against SQLite on the two hot scenarios (the page of 50, POST message), and the latency of an event from
// a write on one server to a stream on another over one PostgreSQL database (LISTEN/NOTIFY). Both databases durable:
// SQLite with synchronous=FULL, PostgreSQL with its defaults (fsync, synchronous_commit on).
//
//   node --import tsx bench/postgres.bench.ts [seconds]      (also a section of `make bench`)
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { prepareTemplate, urlWithDatabase } from '../test/postgres/test-database.ts';
import { startThrowawayPostgres } from '../test/postgres/throwaway-postgres.ts';
import { createChatFixture } from './chat-fixture.ts';
import { runLoad, type LoadOptions, type LoadResult } from './load.ts';
import { startChild, type ServerChild } from './server-process.ts';

const SERVER = new URL('./chat-server.ts', import.meta.url).pathname;
const CONNECTIONS = 10;
const LATENCY_SAMPLES = 200;

export interface PostgresBenchResult {
  /** Per scenario, each alternating round's result of either server. */
  rows: { scenario: string; sqlite: LoadResult[]; postgres: LoadResult[] }[];
  latency: { samples: number; p50Ms: number; p99Ms: number; maxMs: number };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** One server on `db` with a chat of 1000 messages, ready for load. */
async function startSeeded(db: string, extra: Record<string, unknown> = {}): Promise<{ server: ServerChild; page: LoadOptions; post: LoadOptions }> {
  const server = await startChild(SERVER, { db, ...extra });
  const fixture = await createChatFixture(server.url, { messages: 1000, parallel: 50 });
  // What autovacuum does within a minute of a bulk load: fresh planner statistics for the seeded tables.
  if (db.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    await client.query('ANALYZE');
    await client.end();
  }
  return {
    server,
    page: { url: `${server.url}/chats/${fixture.chatId}/messages?limit=50`, headers: fixture.headers, connections: CONNECTIONS },
    post: {
      url: `${server.url}/chats/${fixture.chatId}/messages`, method: 'POST', connections: CONNECTIONS,
      headers: { ...fixture.headers, 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: 'a message posted under load' } }),
    },
  };
}

/**
 * The page of 50, then POST message, on every server in alternating rounds (each round runs each server once, in
 * turn, the first one moving on by one every round), after a warm-up: the machine's load falls on all alike.
 */
async function hotScenarios(targets: Record<string, { db: string; extra?: Record<string, unknown> }>, durationSeconds: number, rounds: number): Promise<Record<string, { page: LoadResult[]; post: LoadResult[] }>> {
  const started: Record<string, Awaited<ReturnType<typeof startSeeded>>> = {};
  try {
    for (const [name, target] of Object.entries(targets)) started[name] = await startSeeded(target.db, target.extra);
    const names = Object.keys(started);
    const results = Object.fromEntries(names.map((name) => [name, { page: [] as LoadResult[], post: [] as LoadResult[] }]));
    for (const kind of ['page', 'post'] as const) {
      for (const name of names) await runLoad({ ...started[name]![kind], durationSeconds: 1 });
      for (let round = 0; round < rounds; round += 1) {
        for (let i = 0; i < names.length; i += 1) {
          const name = names[(i + round) % names.length]!;
          const result = await runLoad({ ...started[name]![kind], durationSeconds });
          if (result.errors + result.non2xx > 0) throw new Error(`${name} ${kind}: ${result.errors} errors, ${result.non2xx} non-2xx`);
          results[name]![kind].push(result);
        }
      }
    }
    return results;
  } finally {
    for (const { server } of Object.values(started)) await server.stop();
  }
}

/** From the POST on server A to the event on a stream of server B, one message at a time. */
async function crossServerLatency(db: string): Promise<PostgresBenchResult['latency']> {
  const a = await startChild(SERVER, { db });
  const b = await startChild(SERVER, { db });
  try {
    const fixture = await createChatFixture(a.url, { login: 'latency' });
    const arrived = new Map<string, number>();
    let wake: () => void = () => {};
    const stream = request(`${b.url}/events`, { headers: { ...fixture.headers, accept: 'text/event-stream' } });
    const ready = new Promise<void>((resolve, reject) => {
      stream.on('response', (res) => {
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (frame.includes('event: ready')) resolve();
            const data = /^data: (.*)$/m.exec(frame)?.[1];
            if (frame.includes('event: message.created') && data) {
              arrived.set(JSON.parse(data).data.id as string, performance.now());
              wake();
            }
          }
        });
      });
      stream.on('error', reject);
    });
    stream.end();
    await ready;
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const sent = performance.now();
      const res = await fetch(`${a.url}/chats/${fixture.chatId}/messages`, {
        method: 'POST', headers: { ...fixture.headers, 'content-type': 'application/json' }, body: JSON.stringify({ data: { text: `latency ${i}` } }),
      });
      const id = ((await res.json()) as { data: { id: string } }).data.id;
      while (!arrived.has(id)) await new Promise<void>((resolve) => { wake = resolve; });
      latencies.push(arrived.get(id)! - sent);
    }
    stream.destroy();
    latencies.sort((x, y) => x - y);
    return { samples: latencies.length, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), maxMs: latencies.at(-1)! };
  } finally {
    await a.stop();
    await b.stop();
  }
}

/** A migrated database whose tables move no change stamp (its triggers off): PostgreSQL as it was before 014. */
async function turnOffChangeStamp(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ table: string }>("SELECT c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname = 'change_stamp'");
  for (const { table } of rows) await client.query(`ALTER TABLE ${table} DISABLE TRIGGER change_stamp`);
  await client.end();
}

export async function runPostgresBench(options: { durationSeconds: number; rounds?: number }): Promise<PostgresBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
  const cluster = await startThrowawayPostgres({ durable: true });
  try {
    await prepareTemplate(cluster.url, 'chat_hot');
    await prepareTemplate(cluster.url, 'chat_unstamped');
    await prepareTemplate(cluster.url, 'chat_latency');
    await turnOffChangeStamp(urlWithDatabase(cluster.url, 'chat_unstamped'));
    // Both backends keep a page nobody wrote to since (their change stamps). The same servers keeping nothing are the
    // like-for-like control, and PostgreSQL without its stamp triggers is what they cost a write.
    const hot = await hotScenarios({
      sqlite: { db: join(dir, 'chat.db') },
      uncached: { db: join(dir, 'uncached.db'), extra: { keepReads: false } },
      postgres: { db: urlWithDatabase(cluster.url, 'chat_hot') },
      unstamped: { db: urlWithDatabase(cluster.url, 'chat_unstamped'), extra: { keepReads: false } },
    }, options.durationSeconds, options.rounds ?? 3);
    const { sqlite, uncached, postgres, unstamped } = hot as Record<'sqlite' | 'uncached' | 'postgres' | 'unstamped', { page: LoadResult[]; post: LoadResult[] }>;
    const latency = await crossServerLatency(urlWithDatabase(cluster.url, 'chat_latency'));
    return {
      rows: [
        { scenario: 'GET /chats/{id}/messages?limit=50 (of 1000), both keeping reads (goal for PostgreSQL: at least 0.5x)', sqlite: sqlite.page, postgres: postgres.page },
        { scenario: 'the same page, PostgreSQL without a change stamp (reads every page: before sql/postgres/014)', sqlite: sqlite.page, postgres: unstamped.page },
        { scenario: 'the same page, both keeping nothing (read every page)', sqlite: uncached.page, postgres: unstamped.page },
        { scenario: 'POST /chats/{id}/messages', sqlite: sqlite.post, postgres: postgres.post },
        { scenario: 'POST /chats/{id}/messages, PostgreSQL without its stamp triggers', sqlite: sqlite.post, postgres: unstamped.post },
      ],
      latency,
    };
  } finally {
    cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatPostgresBench(result: PostgresBenchResult): string {
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const cells = (loads: LoadResult[]): string => `${median(loads.map((load) => load.requestsPerSecond)).toFixed(0)} (${loads.map((load) => load.requestsPerSecond.toFixed(0)).join(', ')}) | `
    + `${median(loads.map((load) => load.p50Ms))} / ${median(loads.map((load) => load.p99Ms))}`;
  // Paired: each round's PostgreSQL run over the same round's SQLite run; the median of those ratios.
  const ratio = (row: PostgresBenchResult['rows'][number]): number => median(row.postgres.map((load, round) => load.requestsPerSecond / row.sqlite[round]!.requestsPerSecond));
  return [
    '| scenario | SQLite req/s (rounds) | SQLite p50 / p99 ms | PostgreSQL req/s (rounds) | PostgreSQL p50 / p99 ms | PostgreSQL / SQLite |',
    '|---|---:|---:|---:|---:|---:|',
    ...result.rows.map((row) => `| ${row.scenario} | ${cells(row.sqlite)} | ${cells(row.postgres)} | **${ratio(row).toFixed(2)}x** |`),
    '',
    `Cross-server event latency (POST on server A until the event arrives on a stream of server B, one database, ${result.latency.samples} messages one at a time): `
      + `p50 ${result.latency.p50Ms.toFixed(1)} ms, **p99 ${result.latency.p99Ms.toFixed(1)} ms**, max ${result.latency.maxMs.toFixed(1)} ms (goal: p99 at most 100 ms).`,
    '',
    `One server process each, all four started and seeded first, then ${CONNECTIONS} connections in alternating rounds (medians); PostgreSQL: a throwaway PostgreSQL 15 on this machine with its default settings, over loopback TCP, pool of 10. Goal for the page: at least 0.5x of SQLite keeping reads (the first row; issue #37).`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seconds = Number(process.argv[2] ?? '5');
  process.stdout.write(`${formatPostgresBench(await runPostgresBench({ durationSeconds: seconds, rounds: Number(process.argv[3] ?? '3') }))}\n`);
}
