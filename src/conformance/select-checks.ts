// Which checks a run takes: its levels, then --only and --skip (ids, prefixes, sections), as Complement's skip lists do.
import type { Check, Level } from './types.ts';

/** Whether `check` matches a pattern: its id, a prefix ending in `.` or `*`, or its section (`§4` takes §4.1, §4.2, ...). */
export function matchesPattern(check: Check, pattern: string): boolean {
  const wanted = pattern.trim();
  if (wanted.startsWith('§')) return check.section === wanted || check.section.startsWith(`${wanted}.`);
  if (wanted.endsWith('*')) return check.id.startsWith(wanted.slice(0, -1));
  if (wanted.endsWith('.')) return check.id.startsWith(wanted);
  return check.id === wanted;
}

/** The lines of a skip file that name something: `#` starts a comment, blank lines are ignored. */
export function readSkipList(text: string): string[] {
  return text.split('\n').map((line) => line.replace(/#.*/, '').trim()).filter((line) => line !== '');
}

export interface Selection {
  levels: readonly Level[];
  only: readonly string[];
  skip: readonly string[];
}

/** The checks to run, in catalogue order, and those the selection leaves out because of --skip (reported as skipped). */
export function selectChecks(checks: readonly Check[], selection: Selection): { run: Check[]; skipped: Check[] } {
  const chosen = checks.filter((check) => selection.levels.includes(check.level)
    && (selection.only.length === 0 || selection.only.some((pattern) => matchesPattern(check, pattern))));
  const skipped = chosen.filter((check) => selection.skip.some((pattern) => matchesPattern(check, pattern)));
  return { run: chosen.filter((check) => !skipped.includes(check)), skipped };
}
