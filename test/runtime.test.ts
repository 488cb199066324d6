// The Node.js the suite runs on is the project's: the major version pinned in .node-version, no older than the pin
// (scripts/node-runtime.sh picks it for make; README.md, Requirements). The test output names it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PINNED = readFileSync(join(ROOT, '.node-version'), 'utf8').trim();

/** -1, 0 or 1 as dotted version a is older than, equal to or newer than b. */
function compareVersions(a: string, b: string): number {
  const [left, right] = [a, b].map((version) => version.split('.').map(Number));
  for (let i = 0; i < 3; i++) {
    const difference = (left![i] ?? 0) - (right![i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

test('the suite runs on the pinned Node.js major, no older than the pin', (t) => {
  t.diagnostic(`node ${process.version} (${process.execPath})`);
  assert.match(PINNED, /^\d+\.\d+\.\d+$/, '.node-version holds one exact version');
  assert.equal(process.versions.node.split('.')[0], PINNED.split('.')[0], `Node.js ${PINNED.split('.')[0]}: run the tests with make test`);
  assert.ok(compareVersions(process.versions.node, PINNED) >= 0, `Node.js ${process.versions.node} is older than the pinned ${PINNED}`);
});

test('package.json engines and @types/node name the pinned major', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; devDependencies: Record<string, string> };
  const major = PINNED.split('.')[0];
  assert.equal(pkg.engines.node, `>=${major}`);
  assert.equal(pkg.devDependencies['@types/node']?.split('.')[0], major, 'the type-check knows the APIs of the node that runs');
});

test('compareVersions orders dotted versions numerically', () => {
  assert.equal(compareVersions('24.21.0', '24.21.0'), 0);
  assert.equal(compareVersions('24.9.0', '24.21.0'), -1);
  assert.equal(compareVersions('24.21.1', '24.21.0'), 1);
  assert.equal(compareVersions('25.0.0', '24.99.99'), 1);
});

test('make run starts the server with SERVER_NODE_FLAGS (src/node-flags.ts), and the single executable carries them', async () => {
  const { SERVER_NODE_FLAGS } = await import('../src/node-flags.ts');
  const serve = /^SERVE := (.*)$/m.exec(readFileSync(join(ROOT, 'Makefile'), 'utf8'))?.[1] ?? '';
  const nodeArgs = serve.slice(serve.indexOf(' node ') + ' node '.length, serve.indexOf(' src/main.ts')).split(' ');
  assert.deepEqual(nodeArgs, [...SERVER_NODE_FLAGS]);
  assert.match(readFileSync(join(ROOT, 'scripts', 'build-binary.ts'), 'utf8'), /execArgv: \[\.\.\.SERVER_NODE_FLAGS\]/);
});
