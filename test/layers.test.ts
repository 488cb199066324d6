// The layout's import rules (docs/architecture.md): no cycle between modules, and no import pointing up the layers.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');

// Every static import and re-export, type-only ones included (a type cycle is a cycle of the design too), and
// every dynamic import(): importing late hides a cycle, it does not cut it.
const IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Each module of src/ (path relative to src/) with the modules of src/ it imports. */
export function importGraph(root: string = SRC): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        const targets = [...readFileSync(path, 'utf8').matchAll(IMPORT)]
          .map((match) => (match[1] ?? match[2])!)
          .filter((specifier) => specifier.startsWith('.'))
          .map((specifier) => relative(root, resolve(dirname(path), specifier)));
        graph.set(relative(root, path), [...new Set(targets)]);
      }
    }
  };
  walk(root);
  return graph;
}

/** Every cycle, as the modules of one strongly connected component (Tarjan), sorted. */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}

/** The folders a layer must not import: the rules of the layout, lowest layer first. */
const FORBIDDEN: readonly { layer: string; mayNotImport: readonly string[]; why: string }[] = [
  { layer: 'parsers/', mayNotImport: [''], why: 'parsers depend on nothing of ours: bytes in, values or a typed failure out' },
  { layer: 'paths.ts', mayNotImport: [''], why: 'the route patterns are a leaf that every layer may import' },
  { layer: 'storage/', mayNotImport: ['http/', 'resources/', 'representations/', 'events/', 'router/', 'openapi/', 'pipeline/', 'app.ts', 'services.ts'], why: 'storage knows rows, never requests or representations' },
  { layer: 'http/', mayNotImport: ['resources/', 'pipeline/'], why: 'http is the toolbox resources use, never the other way round' },
  // The outbound queue and its POSTs sit above storage and below resources: a feature registers its kind there.
  { layer: 'outbound/', mayNotImport: ['http/', 'resources/', 'representations/', 'events/', 'router/', 'openapi/', 'pipeline/', 'app.ts', 'services.ts', 'storage/sqlite/', 'storage/postgres/'], why: 'outbound sends what a kind prepares; it knows no request, resource or backend' },
  { layer: 'storage/', mayNotImport: ['outbound/'], why: 'the queue the outbound loop runs is storage\'s; the loop is above it' },
  // The pipeline runs handlers: no handler, nor anything below, knows the stages it runs in.
  ...['resources/', 'representations/', 'events/', 'router/', 'openapi/', 'metrics/', 'outbound/'].map((layer) => ({
    layer, mayNotImport: ['pipeline/', 'services.ts', 'app.ts'], why: 'the pipeline and the wiring sit above every layer they run',
  })),
  { layer: 'pipeline/', mayNotImport: ['services.ts', 'app.ts'], why: 'the stages take their services as given; wiring them is services.ts\'s' },
  { layer: 'services.ts', mayNotImport: ['pipeline/', 'app.ts'], why: 'the services know nothing of how a request is answered' },
  // Above storage, only the Store interface and its rows are seen: no driver, no SQL, whatever the backend.
  ...['http/', 'resources/', 'representations/', 'events/', 'router/', 'openapi/', 'pipeline/'].map((layer) => ({
    layer, mayNotImport: ['storage/sqlite/', 'storage/postgres/'], why: 'handlers see the Store interface, never a backend',
  })),
];

/** Imports that point up the layers, as "from -> to (why)". */
export function findUpwardImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    for (const rule of FORBIDDEN) {
      if (!from.startsWith(rule.layer)) continue;
      for (const to of targets) {
        // A layer may always import its own folder; `''` forbids every other module of src/.
        if (to.startsWith(rule.layer)) continue;
        if (rule.mayNotImport.some((prefix) => to.startsWith(prefix))) found.push(`${from} -> ${to} (${rule.why})`);
      }
    }
  }
  return found.sort();
}

test('the walk sees the modules and their imports, type-only ones included', () => {
  const graph = importGraph();
  assert.ok(graph.size > 50, `found ${graph.size} modules`);
  assert.ok(graph.get('app.ts')?.includes('pipeline/handle-request.ts'));
  assert.ok(graph.get('resources/context.ts')?.includes('storage/store.ts'), 'an `import type` counts');
});

test('the cycle finder and the layer rules catch what they are for', () => {
  const graph = new Map([
    ['parsers/a.ts', ['http/e.ts']],
    ['http/e.ts', ['resources/r.ts']],
    ['resources/r.ts', ['parsers/a.ts', 'storage/s.ts']],
    ['storage/s.ts', ['storage/s.ts', 'representations/x.ts']],
    ['representations/x.ts', ['storage/sqlite/db.ts']],
    ['storage/sqlite/db.ts', []],
  ]);
  assert.deepEqual(findCycles(graph), [['storage/s.ts'], ['http/e.ts', 'parsers/a.ts', 'resources/r.ts']]);
  assert.deepEqual(findUpwardImports(graph).map((line) => line.split(' (')[0]), [
    'http/e.ts -> resources/r.ts',
    'parsers/a.ts -> http/e.ts',
    'representations/x.ts -> storage/sqlite/db.ts',
    'storage/s.ts -> representations/x.ts',
  ]);
});

test('src/ has no import cycle', () => {
  assert.deepEqual(findCycles(importGraph()), []);
});

test('no import points up the layers', () => {
  assert.deepEqual(findUpwardImports(importGraph()), []);
});
