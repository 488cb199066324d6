// The docs stand alone in a clone: every link in a tracked Markdown file reaches a tracked file (and heading) of this repository.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface LinkProblem {
  file: string;
  target: string;
  problem: string;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...prose.matchAll(/^#{1,6} +(.+)$/gm)].map((match) => anchorOf(match[1]!)));
}

/**
 * Checks every inline and reference link of each file against the set of tracked files. Web links
 * (http, https) are citations anyone can follow and pass; any other link must be a relative path that
 * stays inside the repository and names a tracked file, and an anchor must name one of its headings.
 * Text that points at the workspace around the repository (../shared, CONTRACT.md, spec.md) fails too.
 */
export function checkLinks(files: ReadonlyMap<string, string>): LinkProblem[] {
  const problems: LinkProblem[] = [];
  for (const [file, markdown] of files) {
    for (const outside of markdown.matchAll(/\.\.\/shared\b|\bCONTRACT\.md\b|\bspec\.md\b/g)) {
      problems.push({ file, target: outside[0], problem: 'names a file outside the repository' });
    }
    const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
    const targets = [
      ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!),
      ...[...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1]!),
    ];
    for (const target of targets) {
      if (/^https?:\/\//i.test(target)) continue;
      const fail = (problem: string): void => { problems.push({ file, target, problem }); };
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) {
        fail('is not a relative link inside the repository');
        continue;
      }
      const [path = '', anchor] = target.split('#', 2) as [string, string | undefined];
      const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
      if (resolved.startsWith('..') || relative('.', resolved).startsWith('..')) {
        fail('leaves the repository');
        continue;
      }
      const content = files.get(resolved) ?? (files.has(`__tracked__/${resolved}`) ? '' : undefined);
      if (content === undefined) {
        fail('names a file that is not tracked in the repository');
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(content).has(anchor)) fail(`has no heading for #${anchor}`);
    }
  }
  return problems;
}

/** Every tracked Markdown file by path, plus a `__tracked__/` entry for each other tracked file a link may name. */
function trackedDocs(): Map<string, string> {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter((path) => path !== '');
  const files = new Map<string, string>();
  for (const path of tracked) {
    if (path.endsWith('.md')) files.set(path, readFileSync(join(ROOT, path), 'utf8'));
    else files.set(`__tracked__/${path}`, '');
  }
  return files;
}

test('checkLinks finds links that leave the repository, name a missing file or a missing heading', () => {
  const files = new Map([
    ['README.md', '# Title\n\n## Running it\n[ok](docs/a.md#part-one) [web](https://www.rfc-editor.org/rfc/rfc9110) [anchor](#running-it) [makefile](Makefile)\n'],
    ['docs/a.md', '# A\n\n## Part one\n[up](../README.md) [shared](../../shared/CONTRACT.md) [gone](b.md) [bad anchor](../README.md#nope)\n\n[ref]: ./c.md\n'],
    ['docs/c.md', '```\n[in code](nowhere.md)\n```\n`[inline](nowhere.md)` [abs](/etc/passwd) [file](file:///etc/passwd)\n'],
    ['__tracked__/Makefile', ''],
  ]);
  assert.deepEqual(checkLinks(files), [
    { file: 'docs/a.md', target: '../shared', problem: 'names a file outside the repository' },
    { file: 'docs/a.md', target: 'CONTRACT.md', problem: 'names a file outside the repository' },
    { file: 'docs/a.md', target: '../../shared/CONTRACT.md', problem: 'leaves the repository' },
    { file: 'docs/a.md', target: 'b.md', problem: 'names a file that is not tracked in the repository' },
    { file: 'docs/a.md', target: '../README.md#nope', problem: 'has no heading for #nope' },
    { file: 'docs/c.md', target: '/etc/passwd', problem: 'is not a relative link inside the repository' },
    { file: 'docs/c.md', target: 'file:///etc/passwd', problem: 'is not a relative link inside the repository' },
  ]);
  assert.equal(anchorOf('The zone: stored, not `cropped`'), 'the-zone-stored-not-cropped');
});

test('every link in README.md and docs/ stays inside the repository and reaches a tracked file', () => {
  const files = trackedDocs();
  assert.ok(files.has('README.md') && files.has('docs/reference.md'), 'the README and the reference are tracked');
  assert.deepEqual(checkLinks(files), []);
});
