// The machine reports: JUnit XML (one test suite per section), JSON (the report itself) and TAP 13.
import { formatExchange, groupBySection } from './report-text.ts';
import type { CheckResult, ConformanceReport } from './types.ts';

export type ReporterName = 'text' | 'junit' | 'json' | 'tap';

function escapeXml(text: string): string {
  // XML 1.0 has no place for most control characters: they are dropped.
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function failureText(result: CheckResult): string {
  return [result.message ?? '', ...(result.exchanges ?? []).map(formatExchange)].join('\n');
}

export function formatJunit(report: ConformanceReport): string {
  const suites = groupBySection(report.results).map(([section, results]) => {
    const cases = results.map((result) => {
      const open = `    <testcase classname="${escapeXml(`${result.level}.${section}`)}" name="${escapeXml(`${result.id}: ${result.rule}`)}" time="${(result.durationMs / 1000).toFixed(3)}"`;
      if (result.outcome === 'pass') return `${open}/>`;
      if (result.outcome === 'skip') return `${open}>\n      <skipped message="${escapeXml(result.message ?? '')}"/>\n    </testcase>`;
      return `${open}>\n      <failure message="${escapeXml(result.message ?? '')}">${escapeXml(failureText(result))}</failure>\n    </testcase>`;
    });
    const count = (outcome: string): number => results.filter((result) => result.outcome === outcome).length;
    return `  <testsuite name="${escapeXml(section)}" tests="${results.length}" failures="${count('fail')}" skipped="${count('skip')}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const { pass, fail, skip } = report.counts;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="chat protocol conformance" tests="${pass + fail + skip}" failures="${fail}" skipped="${skip}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`;
}

export function formatTap(report: ConformanceReport): string {
  const lines = ['TAP version 13', `1..${report.results.length}`];
  report.results.forEach((result, index) => {
    const directive = result.outcome === 'skip' ? ` # SKIP ${result.message ?? ''}` : '';
    lines.push(`${result.outcome === 'fail' ? 'not ok' : 'ok'} ${index + 1} - ${result.id} (${result.section})${directive}`);
    if (result.outcome === 'fail') {
      lines.push('  ---', `  message: ${JSON.stringify(result.message ?? '')}`, `  rule: ${JSON.stringify(result.rule)}`, '  exchanges: |');
      for (const line of (result.exchanges ?? []).map(formatExchange).join('\n').split('\n')) lines.push(`    ${line}`);
      lines.push('  ...');
    }
  });
  return `${lines.join('\n')}\n`;
}

export function formatJson(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
