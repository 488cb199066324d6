// Bench only: a capacity step's figures from the generators' raw ones, the pass rule, and the table (bench/capacity.md).
import { ACTION_NAMES, ACTIONS } from './capacity-actions.ts';
import type { StepFigures } from './capacity-generator.ts';
import { percentile } from './events.bench.ts';

const pct = (sorted: readonly number[], p: number): number => (sorted.length === 0 ? 0 : percentile(sorted, p));

/** A step passes with every action's p99 and the delivery p99 within these, and nothing failed, lost or doubled. */
export const ACTION_P99_MS = 100;
export const DELIVERY_P99_MS = 200;

export interface StepRow {
  users: number;
  seconds: number;
  actionsPerSecond: number;
  /** Per action: how many, p50 and p99 ms. */
  actions: { name: string; count: number; p50: number; p99: number }[];
  worstP99: { name: string; p99: number };
  deliveryP50: number;
  deliveryP99: number;
  deliveries: number;
  replayed: number;
  failures: number;
  failuresByAction: Record<string, number>;
  failureReasons: Record<string, number>;
  connectFailures: number;
  connectSeconds: number;
  expected: number;
  lost: number;
  duplicated: number;
  dropped: number;
  /** cpuMsPerAction: the server's CPU time over the step per action (fan-out and pings included): what other load barely moves. */
  server?: { cpuShare: number; cpuMsPerAction: number; rssBytes: number; rssMaxBytes: number };
  generator: { cpuShare: number; loopP99Ms: number; loopMaxMs: number };
  passed: boolean;
  why: string[];
}

export interface StepInput {
  users: number;
  seconds: number;
  figures: StepFigures[];
  checks: { expected: number; lost: number; duplicated: number }[];
  connectFailures: number;
  connectSeconds: number;
  server?: { cpuMs: number; rssBytes: number; rssMaxBytes: number };
}

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
const CORES = 2;

export function summarizeStep(input: StepInput): StepRow {
  const { figures } = input;
  const actions = ACTION_NAMES.map((name) => {
    const all = figures.flatMap((f) => f.latencies[name] ?? []).sort((a, b) => a - b);
    return { name, count: all.length, p50: pct(all, 0.5), p99: pct(all, 0.99) };
  });
  const delivery = figures.flatMap((f) => f.delivery).sort((a, b) => a - b);
  const failuresByAction: Record<string, number> = {};
  for (const f of figures) for (const [name, count] of Object.entries(f.failures)) failuresByAction[name] = (failuresByAction[name] ?? 0) + count;
  const failures = sum(Object.values(failuresByAction));
  const failureReasons: Record<string, number> = {};
  for (const f of figures) for (const [why, count] of Object.entries(f.reasons ?? {})) failureReasons[why] = (failureReasons[why] ?? 0) + count;
  const worstP99 = actions.filter((a) => a.count > 0).reduce((a, b) => (b.p99 > a.p99 ? b : a), { name: '-', p99: 0 });
  const lost = sum(input.checks.map((c) => c.lost));
  const duplicated = sum(input.checks.map((c) => c.duplicated));
  const row: StepRow = {
    users: input.users, seconds: input.seconds,
    actionsPerSecond: sum(actions.map((a) => a.count)) / input.seconds,
    actions, worstP99,
    deliveryP50: pct(delivery, 0.5), deliveryP99: pct(delivery, 0.99), deliveries: delivery.length,
    replayed: sum(figures.map((f) => f.replayed)),
    failures, failuresByAction, failureReasons, connectFailures: input.connectFailures, connectSeconds: input.connectSeconds,
    expected: sum(input.checks.map((c) => c.expected)), lost, duplicated, dropped: sum(figures.map((f) => f.dropped)),
    ...(input.server ? { server: {
      cpuShare: input.server.cpuMs / (input.seconds * 1000 * CORES), cpuMsPerAction: input.server.cpuMs / Math.max(1, sum(actions.map((a) => a.count))),
      rssBytes: input.server.rssBytes, rssMaxBytes: input.server.rssMaxBytes,
    } } : {}),
    generator: {
      cpuShare: sum(figures.map((f) => f.cpuMs)) / (input.seconds * 1000 * CORES),
      loopP99Ms: Math.max(...figures.map((f) => f.loopP99Ms)), loopMaxMs: Math.max(...figures.map((f) => f.loopMaxMs)),
    },
    passed: false, why: [],
  };
  if (worstP99.p99 > ACTION_P99_MS) row.why.push(`${worstP99.name} p99 ${worstP99.p99.toFixed(0)} ms`);
  if (row.deliveryP99 > DELIVERY_P99_MS) row.why.push(`delivery p99 ${row.deliveryP99.toFixed(0)} ms`);
  if (failures + input.connectFailures > 0) row.why.push(`${failures + input.connectFailures} failed`);
  if (lost > 0) row.why.push(`${lost} lost`);
  if (duplicated > 0) row.why.push(`${duplicated} doubled`);
  row.passed = row.why.length === 0;
  return row;
}

const ms = (value: number): string => (value >= 10 ? value.toFixed(0) : value.toFixed(1));
const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);

function stepLine(row: StepRow): string {
  const server = row.server ? `${(row.server.cpuShare * 100).toFixed(0)}%, ${row.server.cpuMsPerAction.toFixed(2)} ms an action | ${mib(row.server.rssBytes)} (${mib(row.server.rssMaxBytes)})` : '- | -';
  const verdict = row.passed ? '**pass**' : `**fail**: ${row.why.join(', ')}`;
  return `| ${row.users.toLocaleString('en')} | ${row.actionsPerSecond.toFixed(0)} | ${row.worstP99.name} ${ms(row.worstP99.p99)} | ${ms(row.deliveryP50)} / ${ms(row.deliveryP99)} (${row.deliveries}) | `
    + `${row.failures} / ${row.lost} / ${row.duplicated} | ${row.dropped} | ${server} | ${(row.generator.cpuShare * 100).toFixed(0)}% / ${ms(row.generator.loopP99Ms)} | ${verdict} |`;
}

/** The table of steps, then (full) each step's actions with their p50 / p99. */
export function formatCapacity(result: { label: string; rows: StepRow[]; options: { seconds: number; generators: number } }, full: boolean): string {
  const head = [
    '| users | actions/s | worst action p99 ms | delivery p50 / p99 ms (deliveries) | failed / lost / doubled | streams dropped | server CPU (of 2 cores), per action | server RSS MiB (max) | generator CPU / loop p99 ms | step |',
    '|---:|---:|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  if (!full) return stepLine(result.rows[0]!);
  const perAction = result.rows.map((row) => `- ${row.users.toLocaleString('en')} users: ${row.actions.filter((a) => a.count > 0)
    .map((a) => `${a.name} ${a.count} × ${ms(a.p50)} / ${ms(a.p99)}${row.failuresByAction[a.name] ? ` (${row.failuresByAction[a.name]} failed)` : ''}`).join('; ')}`
    + `${Object.keys(row.failureReasons).length > 0 ? `; failures: ${Object.entries(row.failureReasons).map(([why, n]) => `${n}× ${why}`).join(', ')}` : ''}`
    + `; replayed after a reconnect ${row.replayed}; streams connected in ${row.connectSeconds.toFixed(0)} s`);
  return [
    `${result.label}: ${result.options.seconds} s a step, ${result.options.generators} generator processes; weights ${ACTION_NAMES.map((n) => `${n} ${ACTIONS[n]}`).join(', ')}.`,
    '',
    ...head, ...result.rows.map(stepLine),
    '',
    'Per action, count × p50 / p99 ms:',
    ...perAction,
  ].join('\n');
}
