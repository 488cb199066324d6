// Where better-sqlite3's native addon is in node_modules: the file the single executable embeds and tests load.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const requireFromRoot = createRequire(join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json'));

/**
 * The addon better-sqlite3 loads here, in its own order: one compiled on purpose (build/Release), else the N-API
 * build it ships for this platform (prebuilds/<platform>-<cpu>.node, `linuxmusl` on musl), which works with every
 * Node.js from 22 on.
 */
export function sqliteAddon(): string {
  const root = dirname(requireFromRoot.resolve('better-sqlite3/package.json'));
  const compiled = join(root, 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(compiled)) return compiled;
  const header = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header;
  const platform = process.platform === 'linux' && header.glibcVersionRuntime === undefined ? 'linuxmusl' : process.platform;
  const prebuilt = join(root, 'prebuilds', `${platform}-${process.arch}.node`);
  if (!existsSync(prebuilt)) throw new Error(`better-sqlite3 has no addon for ${platform}-${process.arch} (${prebuilt}): run make all-modules`);
  return prebuilt;
}
