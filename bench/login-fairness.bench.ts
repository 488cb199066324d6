// A login from another address while one address floods sign-in (scrypt N=2^17, the default hash budget):
// 24 connections sending one account's right password, then 24 sending wrong passwords for many logins.
// Target: every login of the other address succeeds, each within 3x its median on a quiet server.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FloodSummary } from './flood-client.ts';
import { startChild } from './server-process.ts';

const FLOOD_CONNECTIONS = 24;
const VICTIM_LOGINS = 10;
/**
 * The other addresses, one per part (quiet, each flood), so the victim's own logins stay within --login-rate:
 * the loopback range is all ours, so the server sees other clients.
 */
const VICTIM_ADDRESSES = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
const WARM_UP_ADDRESS = '127.0.0.9';
const TARGET_RATIO = 3;

export interface VictimLogins {
  timesMs: number[];
  statuses: number[];
}

export interface FloodScenario {
  name: string;
  victim: VictimLogins;
  flood: FloodSummary;
  /** The slowest of the victim's logins against its quiet median. */
  worstRatio: number;
}

export interface LoginFairnessResult {
  /** The limits the server ran with: 'off' shows the hash budget's turns alone, 'default' the shipped settings. */
  limits: 'off' | 'default';
  quiet: VictimLogins;
  quietMedianMs: number;
  scenarios: FloodScenario[];
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One login over a fresh connection from `localAddress`: its status and its whole time. */
function timedLogin(url: string, body: string, localAddress: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${url}/session`, { method: 'POST', agent: false, localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function victimLogins(url: string, body: string, address: string): Promise<VictimLogins> {
  const result: VictimLogins = { timesMs: [], statuses: [] };
  for (let i = 0; i < VICTIM_LOGINS; i++) {
    const { status, ms } = await timedLogin(url, body, address);
    result.statuses.push(status);
    result.timesMs.push(ms);
  }
  return result;
}

/** Runs the flood (in a process of its own) from 127.0.0.1 while the victim logs in from another address. */
async function underFlood(url: string, victimBody: string, victimAddress: string, floodArgs: string[]): Promise<{ victim: VictimLogins; flood: FloodSummary }> {
  const client = fork(new URL('./flood-client.ts', import.meta.url).pathname, [`${url}/session`, String(FLOOD_CONNECTIONS), '120', ...floodArgs], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const summary = once(client, 'message') as Promise<[FloodSummary]>;
  // Let the flood fill the hash budget before the timed logins start.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const victim = await victimLogins(url, victimBody, victimAddress);
  client.send('stop');
  const [flood] = await summary;
  await once(client, 'exit');
  return { victim, flood };
}

export async function runLoginFairnessBench(options: { limits?: 'off' | 'default' } = {}): Promise<LoginFairnessResult> {
  const limits = options.limits ?? 'off';
  const dir = mkdtempSync(join(tmpdir(), 'bench-login-fairness-'));
  // 'off': nothing but the hash budget's turns between addresses protects the victim (the hardest case).
  const limitOptions = limits === 'off' ? { loginRate: 0, loginMaxFailures: 1_000_000 } : { loginRate: 10, loginMaxFailures: 10 };
  const server = await startChild(new URL('./chat-server.ts', import.meta.url).pathname, { db: join(dir, 'chat.db'), ...limitOptions });
  try {
    const flooded = { login: 'flooded', password: 'the flooded account password' };
    const victim = JSON.stringify({ login: 'victim', password: 'the victim account password' });
    for (const body of [JSON.stringify(flooded), victim]) {
      const res = await fetch(`${server.url}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      if (res.status !== 201) throw new Error(`could not register: ${res.status}`);
    }
    await timedLogin(server.url, victim, WARM_UP_ADDRESS);
    const quiet = await victimLogins(server.url, victim, VICTIM_ADDRESSES[0]!);
    const quietMedianMs = median(quiet.timesMs);
    const scenarios: FloodScenario[] = [];
    const flood = async (name: string, args: string[]): Promise<void> => {
      const { victim: logins, flood: summary } = await underFlood(server.url, victim, VICTIM_ADDRESSES[scenarios.length + 1]!, args);
      scenarios.push({ name, victim: logins, flood: summary, worstRatio: Math.max(...logins.timesMs) / quietMedianMs });
    };
    await flood(`${FLOOD_CONNECTIONS} connections logging in to one account with its right password`, [flooded.password, flooded.login]);
    await flood(`${FLOOD_CONNECTIONS} connections sending wrong passwords for many logins (a new one each time)`, ['a wrong password']);
    return { limits, quiet, quietMedianMs, scenarios };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatLoginFairnessBench(result: LoginFairnessResult): string {
  const ok = (logins: VictimLogins): number => logins.statuses.filter((status) => status === 201).length;
  const row = (name: string, logins: VictimLogins) =>
    `| ${name} | ${ok(logins)} of ${logins.statuses.length} | ${median(logins.timesMs).toFixed(0)} | ${Math.max(...logins.timesMs).toFixed(0)} | ${(Math.max(...logins.timesMs) / result.quietMedianMs).toFixed(2)}x |`;
  const statuses = (flood: FloodSummary): string => Object.entries(flood.statuses).map(([code, count]) => `${count} × ${code}`).join(', ');
  const met = result.scenarios.every((scenario) => ok(scenario.victim) === scenario.victim.statuses.length && scenario.worstRatio <= TARGET_RATIO);
  return [
    `Login limits ${result.limits === 'off' ? 'off (--login-rate 0, --login-max-failures 1000000): the hash budget\'s turns alone' : 'at their defaults'}; the flood comes from 127.0.0.1, the timed logins (${VICTIM_LOGINS}, one after the other) from ${VICTIM_ADDRESSES.join(', ')} (one address per row).`,
    '',
    '| the other address\'s logins | succeeded | median ms | slowest ms | slowest / quiet median |',
    '|---|---:|---:|---:|---:|',
    row('quiet server', result.quiet),
    ...result.scenarios.map((scenario) => row(`during ${scenario.name}`, scenario.victim)),
    '',
    ...result.scenarios.map((scenario) => `The flood of ${scenario.name}: ${scenario.flood.requests} answers (${statuses(scenario.flood)}), ${scenario.flood.timeouts} errors or timeouts.`),
    '',
    `Every login of the other address succeeded within ${TARGET_RATIO}x its quiet median: **${met ? 'yes' : 'no'}** (worst ${Math.max(...result.scenarios.map((scenario) => scenario.worstRatio)).toFixed(2)}x).`,
  ].join('\n');
}

/** Both settings, one after the other: what `make bench` reports. */
export async function runBothLoginFairnessBenches(): Promise<string> {
  const parts: string[] = [];
  for (const limits of ['off', 'default'] as const) parts.push(formatLoginFairnessBench(await runLoginFairnessBench({ limits })));
  return parts.join('\n\n');
}

// `node --import tsx bench/login-fairness.bench.ts [off|default]`: this section alone, both settings unless one is named.
if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const limits = process.argv[2];
  console.log(limits === 'off' || limits === 'default' ? formatLoginFairnessBench(await runLoginFairnessBench({ limits })) : await runBothLoginFairnessBenches());
}
