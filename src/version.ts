// The server's version: baked in by scripts/build-binary.ts for the single executable, else package.json.
import { readFileSync } from 'node:fs';

// The single executable has no package.json beside it: the build defines this constant.
declare const CHAT_SERVER_VERSION: string | undefined;

export function serverVersion(): string {
  if (typeof CHAT_SERVER_VERSION === 'string') return CHAT_SERVER_VERSION;
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
