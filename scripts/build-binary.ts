// Builds dist/chat-server, a Node.js single executable: the bundled server plus better-sqlite3's addon as an asset.
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADDON_ASSET } from '../src/binary/native-addon.ts';
import { SERVER_NODE_FLAGS } from '../src/node-flags.ts';
import { sqliteAddon } from './sqlite-addon.ts';
import { loadPostgresMigrations } from '../src/storage/postgres/migrate.ts';
import { loadMigrations } from '../src/storage/sqlite/database.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = join(ROOT, 'dist', 'chat-server');
// The fuse string every SEA-capable node binary carries; postject flips it to say a blob is present.
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const requireFromRoot = createRequire(join(ROOT, 'package.json'));

/**
 * Bundles src/main.ts into one CommonJS file that needs nothing else of this checkout: migrations inlined. The
 * executable passes better-sqlite3 its embedded addon; run as a plain script, the bundle lets better-sqlite3 look
 * for its addon as usual, relative to its own code, now the bundle's directory: in ../build/Release/ (how
 * test/server-copy.ts runs the server as another user, from outside a checkout that user cannot enter).
 */
export async function bundle(file: string): Promise<void> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  await build({
    entryPoints: [join(ROOT, 'src', 'main.ts')],
    outfile: file,
    bundle: true,
    // Node 24's SEA runs one CommonJS script whose require() reaches only the built-in modules.
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    // pg is optional and loaded only for a postgres:// --db (await import('pg')): left out of the bundle, the
    // executable runs on SQLite with no pg anywhere, and names the missing driver if given a PostgreSQL URL.
    external: ['pg'],
    define: {
      CHAT_SERVER_VERSION: JSON.stringify(pkg.version),
      CHAT_SERVER_MIGRATIONS: JSON.stringify(loadMigrations()),
      CHAT_SERVER_PG_MIGRATIONS: JSON.stringify(loadPostgresMigrations()),
      // CommonJS has no import.meta; the banner gives modules that compute paths from it a real URL.
      'import.meta.url': '__chatServerUrl',
    },
    banner: { js: "const __chatServerUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
  });
}

/** Drops the symbol table of the copied node (about 12 MiB, read by debuggers only); false when there is no `strip`. */
function stripSymbols(binary: string): boolean {
  const result = spawnSync('strip', ['--strip-all', binary], { encoding: 'utf8' });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return false;
  if (result.status !== 0) throw new Error(`strip ${binary} failed: ${result.error?.message ?? result.stderr}`);
  return true;
}

function run(command: string, args: string[]): void {
  // Output is shown only when a step fails: postject's warnings about ELF note sections are expected.
  execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface BuiltBinary {
  path: string;
  stripped: boolean;
}

export async function buildBinary(): Promise<BuiltBinary> {
  if (process.platform === 'win32') throw new Error('this script builds for Linux and macOS; see docs/binary.md');
  const addon = sqliteAddon();
  mkdirSync(dirname(OUTPUT), { recursive: true });
  // Everything is staged in a private directory and renamed into place last, so a build that
  // fails or runs beside another never leaves a half-injected dist/chat-server.
  const stage = mkdtempSync(join(dirname(OUTPUT), '.build-'));
  try {
    const script = join(stage, 'chat-server.cjs');
    const blob = join(stage, 'chat-server.blob');
    const binary = join(stage, 'chat-server');
    await bundle(script);
    const seaConfig = join(stage, 'sea-config.json');
    writeFileSync(seaConfig, JSON.stringify({
      main: script,
      output: blob,
      disableExperimentalSEAWarning: true,
      assets: { [ADDON_ASSET]: addon },
      execArgv: [...SERVER_NODE_FLAGS],
      // useCodeCache is left off: measured, it saved no start-up time (V8 compiles lazily anyway).
    }, null, 2));
    run(process.execPath, ['--experimental-sea-config', seaConfig]);
    copyFileSync(process.execPath, binary);
    chmodSync(binary, 0o755);
    // Before injection only: stripping an injected executable breaks it (it crashes at start).
    const stripped = process.platform === 'linux' && stripSymbols(binary);
    const postject = [requireFromRoot.resolve('postject/dist/cli.js'), binary, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE];
    if (process.platform === 'darwin') {
      // The copied node's signature no longer matches once injected; it is removed, then replaced ad hoc.
      run('codesign', ['--remove-signature', binary]);
      run(process.execPath, [...postject, '--macho-segment-name', 'NODE_SEA']);
      run('codesign', ['--sign', '-', binary]);
    } else {
      run(process.execPath, postject);
    }
    renameSync(binary, OUTPUT);
    return { path: OUTPUT, stripped };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const { path, stripped } = await buildBinary();
  const megabytes = (statSync(path).size / 2 ** 20).toFixed(1);
  const symbols = stripped ? 'symbols stripped' : 'symbols kept';
  process.stdout.write(`built ${path} (${megabytes} MiB, ${symbols}) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
