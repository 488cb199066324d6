// The server bundled into one file in a directory any user can enter, for tests that run it as `nobody`: the clone
// itself may live where nobody cannot go (`mktemp -d` makes 0700), and then it could not even load src/, nor run
// the project's Node.js when that is the one make fetched into the clone's .runtime/ (README.md, Requirements).
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bundle } from '../scripts/build-binary.ts';
import { sqliteAddon } from '../scripts/sqlite-addon.ts';

export interface ServerCopy {
  /** The node to run it with: this process's, or a copy of it when another user could not reach that one. */
  node: string;
  script: string;
}

let made: Promise<ServerCopy> | undefined;

/** True when any user may run `file`: it, and every directory above it, let others (not owner, not group) in. */
function runnableByOthers(file: string): boolean {
  if ((statSync(file).mode & 0o001) === 0) return false;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dir === dirname(dir)) return true;
  }
}

/**
 * A self-contained copy of the server (src/main.ts bundled, migrations inlined, better-sqlite3's addon beside it
 * where its loader looks) and a node that runs it, made once per test process in a world-readable temporary directory.
 */
export function serverCopy(): Promise<ServerCopy> {
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
    let node = realpathSync(process.execPath);
    if (!runnableByOthers(node)) {
      copyFileSync(node, join(dir, 'node'));
      node = join(dir, 'node');
      chmodSync(node, 0o755);
    }
    return { node, script };
  })();
  return made;
}
