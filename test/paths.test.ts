// One source of paths (src/paths.ts): the route table uses exactly its patterns, and no other file of src/ spells one.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { METRICS_PATH, PATHS } from '../src/paths.ts';
import { ALL_ROUTES } from '../src/resources/all-routes.ts';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** Each .ts file of src/ (path relative to src/) with its text. */
function sourceFiles(dir = SRC): [string, string][] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry): [string, string][] => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [[relative(SRC, path), readFileSync(path, 'utf8')]] : [];
  });
}

// The first segment of every route pattern ('chats', 'openapi.json', ...) and the metrics port's path.
const FIRST_SEGMENTS = [...new Set([...Object.values(PATHS), METRICS_PATH].map((pattern) => pattern.split('/')[1]!).filter((segment) => segment !== ''))];
const escaped = FIRST_SEGMENTS.map((segment) => segment.replace(/[.]/g, '\\.'));
/**
 * A path spelled by hand: a string or template literal that starts with one of those segments ('/chats',
 * `/users/${id}`), or a template piece that follows an interpolation (`${basePath}/docs`).
 */
const SPELLED_PATH = new RegExp(`(['"\`}])/(${escaped.join('|')})(?=[/'"\`?:]|$)`, 'gm');

/** Where `text` spells a route path by hand, as "line: excerpt"; comments are prose and may name paths. */
export function spelledPaths(text: string): string[] {
  return text.split('\n').flatMap((line, index) => {
    const code = line.trimStart();
    if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return [];
    // A conformance check's first line quotes its rule from docs/protocol.md: prose too (src/conformance/checks/).
    if (code.startsWith("check('")) return [];
    return [...line.matchAll(SPELLED_PATH)].map((match) => `${index + 1}: ${line.trim().slice(0, 120)} (${match[0]})`);
  });
}

test('the finder catches a path spelled by hand and lets comments and prose be', () => {
  assert.equal(spelledPaths("const a = '/chats';").length, 1);
  assert.equal(spelledPaths('const b = `/users/${id}/avatar`;').length, 1);
  assert.equal(spelledPaths('const c = `${basePath}/docs`;').length, 1);
  assert.equal(spelledPaths("['POST /users', rule]").length, 0, 'a form rule key built by hand is caught by its own check (form-rules.test.ts)');
  assert.equal(spelledPaths("href: ctx.href('/openapi.json')").length, 1);
  assert.equal(spelledPaths("// GET /chats/:chatId answers it").length, 0);
  assert.equal(spelledPaths("  check('core.x.y', '§4.4', 'GET /chats/{id}/messages: oldest first', async (ctx) => {").length, 0);
  assert.equal(spelledPaths("summary: 'The token from POST /session'").length, 0);
  assert.equal(spelledPaths("const d = '/chatsroom';").length, 0);
});

test('every route of the table has its pattern from PATHS, and every pattern of PATHS is routed', () => {
  const patterns = new Set<string>(Object.values(PATHS));
  const routed = new Set(ALL_ROUTES.map((route) => route.pattern));
  assert.deepEqual([...routed].filter((pattern) => !patterns.has(pattern)), []);
  assert.deepEqual([...patterns].filter((pattern) => !routed.has(pattern)), []);
});

test('no file of src/ but paths.ts spells a route path', () => {
  const found = sourceFiles().filter(([file]) => file !== 'paths.ts').flatMap(([file, text]) => spelledPaths(text).map((hit) => `${file}:${hit}`));
  assert.deepEqual(found, []);
});
