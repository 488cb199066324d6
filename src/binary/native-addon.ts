// In the single executable, loads better-sqlite3's native addon from the copy the build embedded as an asset.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The SEA asset key under which scripts/build-binary.ts embeds better_sqlite3.node. */
export const ADDON_ASSET = 'better_sqlite3.node';

// node:sea only exists from Node 20.12, and a static import would stop the server from
// starting from source on older versions, which can never be the single executable anyway.
const requireBuiltin = createRequire(import.meta.url);

let addon: object | undefined;

/** The addon's exports when running as the single executable; undefined otherwise, where node_modules has it. */
export function loadEmbeddedAddon(): object | undefined {
  if (!isBuiltin('node:sea')) return undefined;
  const sea = requireBuiltin('node:sea') as typeof import('node:sea');
  if (!sea.isSea()) return undefined;
  // One load serves every database; each further one would extract and map another copy.
  addon ??= loadAddonCopy(sea.getAsset(ADDON_ASSET));
  return addon;
}

/** Writes the addon's bytes to a private temporary file under `parent`, loads it, and removes the file. */
export function loadAddonCopy(bytes: ArrayBuffer, parent: string = tmpdir()): object {
  // dlopen needs a real file. mkdtemp makes the directory 0700 and `wx` refuses an existing file,
  // so no other user can read, replace or pre-plant the library we are about to execute.
  const dir = mkdtempSync(join(parent, 'chat-server-'));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    const file = join(dir, ADDON_ASSET);
    writeFileSync(file, new Uint8Array(bytes), { mode: 0o600, flag: 'wx' });
    const module = { exports: {} };
    try {
      process.dlopen(module, file);
    } catch (error) {
      throw new Error(`cannot load the embedded SQLite addon from ${dir} (a temporary directory mounted noexec? set TMPDIR): ${(error as Error).message}`, { cause: error });
    }
    return module.exports;
  } finally {
    // Once mapped, the library needs its file no more on Linux and macOS, so nothing is left behind
    // even after a kill -9; Windows locks a loaded DLL, so there it goes at exit.
    try {
      remove();
    } catch {
      process.once('exit', remove);
    }
  }
}
