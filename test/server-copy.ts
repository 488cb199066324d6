// The server bundled into one file in a directory any user can enter, for tests that run it as `nobody`: the clone
// itself may live where nobody cannot go (`mktemp -d` makes 0700), and then it could not even load src/.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bundle } from '../scripts/build-binary.ts';

let made: Promise<string> | undefined;

/**
 * The path of a self-contained copy of the server (src/main.ts bundled, migrations inlined, better-sqlite3's addon
 * beside it where its loader looks), made once per test process in a world-readable temporary directory.
 */
export function serverCopy(): Promise<string> {
  made ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chat-server-copy-'));
    chmodSync(dir, 0o755);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const script = join(dir, 'chat-server.cjs');
    await bundle(script, 'node_modules');
    // bindings (better-sqlite3's loader) looks in build/Release of the nearest directory holding a package.json.
    const addon = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
    mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
    copyFileSync(addon, join(dir, 'build', 'Release', 'better_sqlite3.node'));
    writeFileSync(join(dir, 'package.json'), '{"private": true}\n');
    return script;
  })();
  return made;
}
