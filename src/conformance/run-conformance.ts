// Runs the selected checks one after another against a server and gathers the report (docs/conformance.md).
import { ALL_CHECKS } from './checks/all-checks.ts';
import { KitContext } from './context.ts';
import { CheckFailure, CheckSkipped } from './expect.ts';
import { closeConnections } from './http-client.ts';
import { selectChecks } from './select-checks.ts';
import { LEVELS, type Check, type CheckResult, type ConformanceOptions, type ConformanceReport } from './types.ts';

const KEPT_EXCHANGES = 3;

function raceTimeout(promise: Promise<void>, ms: number, id: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CheckFailure(`${id} took more than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function runCheck(check: Check, ctx: KitContext, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  ctx.exchanges = [];
  const base = { id: check.id, section: check.section, rule: check.rule, level: check.level };
  try {
    await raceTimeout(check.run(ctx), timeoutMs, check.id);
    return { ...base, outcome: 'pass', durationMs: Math.round(performance.now() - started) };
  } catch (error) {
    const durationMs = Math.round(performance.now() - started);
    if (error instanceof CheckSkipped) return { ...base, outcome: 'skip', durationMs, message: error.message };
    // Anything else (an answer of an unexpected shape, a dropped connection) is a failure of the server too.
    const message = error instanceof CheckFailure ? error.message : `${(error as Error).name}: ${(error as Error).message}`;
    return { ...base, outcome: 'fail', durationMs, message, exchanges: ctx.exchanges.slice(-KEPT_EXCHANGES) };
  } finally {
    ctx.endCheck();
  }
}

/** Runs the conformance kit against `options.baseUrl`; never throws for what the server answers. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const startedAt = new Date();
  const ctx = new KitContext(options.baseUrl, { ...(options.invite ? { invite: options.invite } : {}), ...(options.adminToken ? { adminToken: options.adminToken } : {}) });
  const { run, skipped } = selectChecks(ALL_CHECKS, { levels: options.levels ?? LEVELS, only: options.only ?? [], skip: options.skip ?? [] });
  const results: CheckResult[] = [];
  const timeoutMs = options.checkTimeoutMs ?? 20_000;
  try {
    for (const check of ALL_CHECKS) {
      let result: CheckResult | undefined;
      if (skipped.includes(check)) {
        result = { id: check.id, section: check.section, rule: check.rule, level: check.level, outcome: 'skip', durationMs: 0, message: 'skipped by --skip' };
      } else if (run.includes(check)) {
        result = await runCheck(check, ctx, timeoutMs);
      }
      if (result === undefined) continue;
      results.push(result);
      options.onResult?.(result);
    }
  } finally {
    await ctx.cleanUp();
    closeConnections();
  }
  const counts = { pass: 0, fail: 0, skip: 0 };
  for (const result of results) counts[result.outcome] += 1;
  return { baseUrl: options.baseUrl, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), results, counts };
}
