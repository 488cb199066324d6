// The readable report: per section, each rule with pass, FAIL or skip; each failure with its requests and answers, shortened.
import type { Exchange } from './http-client.ts';
import type { CheckResult, ConformanceReport } from './types.ts';

const MARK = { pass: 'pass', fail: 'FAIL', skip: 'skip' } as const;

// Headers every answer has and no failure is about, left out of the report to keep it short.
const UNTOLD = new Set(['date', 'connection', 'keep-alive']);

function showHeaders(headers: Record<string, unknown>): string[] {
  return Object.entries(headers).filter(([name]) => !UNTOLD.has(name.toLowerCase())).map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`);
}

/** One exchange as raw-looking HTTP, indented, the Authorization header's token hidden. */
export function formatExchange(exchange: Exchange): string {
  const requestHeaders = { ...exchange.requestHeaders };
  if (requestHeaders['Authorization']) requestHeaders['Authorization'] = requestHeaders['Authorization'].replace(/ .*/, ' [token]');
  const lines = [`> ${exchange.method} ${exchange.url}`, ...showHeaders(requestHeaders).map((line) => `> ${line}`)];
  if (exchange.requestBody !== undefined) lines.push(`> ${exchange.requestBody}`);
  if (exchange.error !== undefined) lines.push(`! ${exchange.error}`);
  if (exchange.status !== undefined) {
    lines.push(`< ${exchange.status}`, ...showHeaders(exchange.responseHeaders ?? {}).map((line) => `< ${line}`));
    if (exchange.responseBody !== undefined) lines.push(`< ${exchange.responseBody}`);
  }
  return lines.map((line) => `      ${line}`).join('\n');
}

/** Sections in the order of docs/protocol.md (§2 before §10). */
export function compareSections(a: string, b: string): number {
  const numbers = (section: string): number[] => section.replace('§', '').split('.').map(Number);
  const [x, y] = [numbers(a), numbers(b)];
  for (let index = 0; index < Math.max(x.length, y.length); index++) {
    const difference = (x[index] ?? -1) - (y[index] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
}

export function groupBySection(results: readonly CheckResult[]): [string, CheckResult[]][] {
  const sections = new Map<string, CheckResult[]>();
  for (const result of results) sections.set(result.section, [...(sections.get(result.section) ?? []), result]);
  return [...sections].sort(([a], [b]) => compareSections(a, b));
}

export function formatText(report: ConformanceReport): string {
  const lines = [`Conformance of ${report.baseUrl} (docs/protocol.md), ${report.startedAt}`, ''];
  for (const [section, results] of groupBySection(report.results)) {
    const count = (outcome: string): number => results.filter((result) => result.outcome === outcome).length;
    const [failed, skipped] = [count('fail'), count('skip')];
    lines.push(`${section}  ${count('pass')}/${results.length}${failed > 0 ? `, ${failed} failed` : ''}${skipped > 0 ? `, ${skipped} skipped` : ''}`);
    for (const result of results) {
      lines.push(`  ${MARK[result.outcome]}  ${result.id}: ${result.rule}`);
      if (result.outcome === 'skip' && result.message) lines.push(`      (${result.message})`);
      if (result.outcome === 'fail') {
        lines.push(`      ${result.message ?? 'failed'}`);
        for (const exchange of result.exchanges ?? []) lines.push(formatExchange(exchange));
      }
    }
  }
  const { pass, fail, skip } = report.counts;
  lines.push('', `${pass} passed, ${fail} failed, ${skip} skipped in ${(report.durationMs / 1000).toFixed(1)} s`);
  return `${lines.join('\n')}\n`;
}
