// The server bundled into one file in a directory any user can enter, for tests that run it as `nobody`: the clone
// itself may live where nobody cannot go (`mktemp -d` makes 0700), and then it could not even load src/.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundle } from '../scripts/build-binary.ts';
import { sqliteAddon } from '../scripts/sqlite-addon.ts';

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
    // better-sqlite3's loader, bundled into lib/, looks for the addon in ../build/Release/ from there.
    mkdirSync(join(dir, 'lib'));
    mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
    const script = join(dir, 'lib', 'chat-server.cjs');
    await bundle(script);
    copyFileSync(sqliteAddon(), join(dir, 'build', 'Release', 'better_sqlite3.node'));
    return script;
  })();
  return made;
}
