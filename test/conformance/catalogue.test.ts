// The kit's catalogue and docs/protocol.md in step: every check names a real section and is named by it, every id the
// document names exists, and every subsection says which checks test it or why none can (scripts/conformance-coverage.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readRuleSections } from '../../scripts/conformance-coverage.ts';
import { ALL_CHECKS, LEVELS } from '../../src/conformance/index.ts';
import { matchesPattern, readSkipList, selectChecks } from '../../src/conformance/select-checks.ts';

const sections = readRuleSections();

test('every check has a unique id that starts with its level, a section of docs/protocol.md and a rule', () => {
  assert.ok(ALL_CHECKS.length >= 120, `${ALL_CHECKS.length} checks`);
  assert.equal(new Set(ALL_CHECKS.map((check) => check.id)).size, ALL_CHECKS.length);
  const known = new Set(sections.map((rule) => rule.section));
  for (const check of ALL_CHECKS) {
    assert.match(check.id, /^(core|events|features|hardening)\.[a-z0-9-]+\.[a-z0-9-]+$/);
    assert.equal(check.id.split('.')[0], check.level);
    assert.ok(known.has(check.section), `${check.id}: ${check.section} is no subsection of docs/protocol.md`);
    assert.ok(check.rule.length > 10, `${check.id} quotes its rule`);
  }
  for (const level of LEVELS) assert.ok(ALL_CHECKS.some((check) => check.level === level), `a check of level ${level}`);
});

test('docs/protocol.md names every check in its section\'s Checks: line, and no check that does not exist', () => {
  const bySection = new Map(sections.map((rule) => [rule.section, rule.checks]));
  const unnamed = ALL_CHECKS.filter((check) => !bySection.get(check.section)?.includes(check.id)).map((check) => `${check.section} ${check.id}`);
  assert.deepEqual(unnamed, [], 'checks their section does not name');
  const ids = new Set(ALL_CHECKS.map((check) => check.id));
  const dangling = sections.flatMap((rule) => rule.checks.filter((id) => !ids.has(id)).map((id) => `${rule.section} ${id}`));
  assert.deepEqual(dangling, [], 'ids docs/protocol.md names that the kit does not have');
});

test('every subsection of docs/protocol.md ends with a Checks: line, naming checks or saying why none can', () => {
  assert.deepEqual(sections.filter((rule) => rule.line === undefined).map((rule) => rule.section), []);
  for (const rule of sections.filter((each) => each.checks.length === 0)) assert.match(rule.line!, /^Checks: none\b.{20,}/, `${rule.section} says why no check`);
});

test('the coverage reader finds Checks: lines per subsection, and a ## section only when it has no ### of its own', () => {
  const text = '## 1. One\n\nintro\n\n### 1.1 A\n\nrule\n\nChecks: `core.a.b`, `events.c.d`.\n\n### 1.2 B\n\nrule\n\n## 2. Two\n\nChecks: none: no way.\n';
  assert.deepEqual(readRuleSections(text).map(({ section, checks, line }) => [section, checks, line !== undefined]), [
    ['§1.1', ['core.a.b', 'events.c.d'], true], ['§1.2', [], false], ['§2', [], true],
  ]);
});

test('--only and --skip take ids, prefixes and sections; a skip file takes one a line with # comments', () => {
  const check = ALL_CHECKS.find((each) => each.id === 'core.visibility.unknown-404')!;
  for (const pattern of ['core.visibility.unknown-404', 'core.visibility.', 'core.vis*', '§4.1', '§4']) assert.ok(matchesPattern(check, pattern), pattern);
  for (const pattern of ['core.visibility', 'core.visibility.unknown', '§4.10', '§41', 'events.']) assert.ok(!matchesPattern(check, pattern), pattern);
  assert.deepEqual(readSkipList('# known failures\ncore.a.b   # not yet\n\n  events.*\n'), ['core.a.b', 'events.*']);
  const chosen = selectChecks(ALL_CHECKS, { levels: ['events'], only: ['§9.8'], skip: ['events.longpoll.wakes'] });
  assert.ok(chosen.run.length > 3 && chosen.run.every((each) => each.section === '§9.8' && each.id !== 'events.longpoll.wakes'));
  assert.deepEqual(chosen.skipped.map((each) => each.id), ['events.longpoll.wakes']);
});
