// Loading better-sqlite3's addon from a temporary copy, as the single executable does: it works and leaves no file.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { sqliteAddon } from '../../scripts/sqlite-addon.ts';
import { loadAddonCopy, loadEmbeddedAddon } from '../../src/binary/native-addon.ts';

const ADDON = sqliteAddon();

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'chat-addon-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function bytesOf(file: string): ArrayBuffer {
  const buffer = readFileSync(file);
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
}

test('outside the single executable there is no embedded addon, so node_modules is used', () => {
  assert.equal(loadEmbeddedAddon(), undefined);
});

test('a copy of the addon loads, opens a database, and its file is gone once loaded', (t) => {
  const parent = tempDir(t);
  const addon = loadAddonCopy(bytesOf(ADDON), parent);
  assert.deepEqual(readdirSync(parent), []);
  if (process.platform === 'linux') {
    // The mapping outlives the file: /proc lists it under the removed path.
    assert.match(readFileSync('/proc/self/maps', 'utf8'), new RegExp(`${parent}/chat-server-\\w+/better_sqlite3\\.node \\(deleted\\)`));
  }
  const db = new Database(':memory:', { nativeBinding: addon as unknown as string });
  t.after(() => db.close());
  assert.equal((db.prepare('SELECT 6 * 7 AS answer').get() as { answer: number }).answer, 42);
});

test('bytes that are no library fail with a hint about noexec and leave no file', (t) => {
  const parent = tempDir(t);
  assert.throws(() => loadAddonCopy(new TextEncoder().encode('not an ELF file').buffer as ArrayBuffer, parent), /cannot load the embedded SQLite addon .*TMPDIR/);
  assert.deepEqual(readdirSync(parent), []);
});
