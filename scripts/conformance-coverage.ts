// Lists the rules of docs/protocol.md and the conformance checks that test them (docs/conformance.md): each subsection
// ends with a `Checks:` line naming check ids, or saying why none can. Prints the subsections without a check and
// exits 1 when a subsection has no `Checks:` line or names a check the kit does not have.
// Usage: node --import tsx scripts/conformance-coverage.ts
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALL_CHECKS } from '../src/conformance/index.ts';

const PROTOCOL = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'protocol.md');

export interface RuleSection {
  /** `§4.2` */
  section: string;
  title: string;
  /** The check ids its `Checks:` line names, in order. */
  checks: string[];
  /** The `Checks:` line, or undefined when the subsection has none. */
  line: string | undefined;
}

/** The numbered subsections of docs/protocol.md (a `##` section counts only when it has no `###` of its own). */
export function readRuleSections(text = readFileSync(PROTOCOL, 'utf8')): RuleSection[] {
  const lines = text.split('\n');
  const headings = lines.flatMap((line, index) => {
    const match = /^(#{2,3}) (\d+(?:\.\d+)?)\.? (.*)$/.exec(line);
    return match ? [{ index, level: match[1]!.length, section: `§${match[2]}`, title: match[3]! }] : [];
  });
  return headings.flatMap((heading, at) => {
    const next = headings[at + 1];
    if (heading.level === 2 && next?.level === 3 && next.section.startsWith(`${heading.section}.`)) return [];
    const body = lines.slice(heading.index + 1, next?.index ?? lines.length);
    const line = body.find((candidate) => candidate.startsWith('Checks: '));
    const checks = line === undefined ? [] : [...line.matchAll(/`((?:core|events|features|hardening)\.[a-z0-9.-]+[a-z0-9])`/g)].map((match) => match[1]!);
    return [{ section: heading.section, title: heading.title, checks, line }];
  });
}

function main(): number {
  const sections = readRuleSections();
  const known = new Set(ALL_CHECKS.map((check) => check.id));
  const missing = sections.filter((rule) => rule.line === undefined);
  const dangling = sections.flatMap((rule) => rule.checks.filter((id) => !known.has(id)).map((id) => `${rule.section} names ${id}, which the kit does not have`));
  const unchecked = sections.filter((rule) => rule.line !== undefined && rule.checks.length === 0);
  const out = (line: string): boolean => process.stdout.write(`${line}\n`);
  out(`${sections.length} subsections of docs/protocol.md; ${ALL_CHECKS.length} checks; ${sections.length - missing.length - unchecked.length} subsections with checks`);
  out(`${unchecked.length} without a check, each saying why:`);
  for (const rule of unchecked) out(`  ${rule.section} ${rule.title}: ${rule.line!.slice('Checks: '.length)}`);
  for (const rule of missing) out(`MISSING: ${rule.section} ${rule.title} has no Checks: line`);
  for (const line of dangling) out(`DANGLING: ${line}`);
  return missing.length + dangling.length > 0 ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();
