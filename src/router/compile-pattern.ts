// Compiles a path pattern such as /chats/:chatId/messages into a regex and its parameter names.
export interface CompiledPattern {
  pattern: string;
  keys: string[];
  regex: RegExp;
}

const SEGMENT = /^(?::([a-zA-Z][a-zA-Z0-9]*)|[a-z0-9._~-]+)$/;

/** Throws at start on a malformed pattern, so a typo never reaches a client. */
export function compilePattern(pattern: string): CompiledPattern {
  if (pattern === '/') return { pattern, keys: [], regex: /^\/$/ };
  if (!pattern.startsWith('/') || pattern.endsWith('/')) {
    throw new Error(`route pattern must start and not end with "/": ${pattern}`);
  }
  const keys: string[] = [];
  const parts = pattern.slice(1).split('/').map((segment) => {
    const match = SEGMENT.exec(segment);
    if (!match) throw new Error(`malformed segment "${segment}" in route pattern ${pattern}`);
    const key = match[1];
    if (key === undefined) return segment.replace(/[.]/g, '\\.');
    if (keys.includes(key)) throw new Error(`parameter :${key} repeats in route pattern ${pattern}`);
    keys.push(key);
    return '([^/]+)';
  });
  return { pattern, keys, regex: new RegExp(`^/${parts.join('/')}$`) };
}

/** A pattern split for building paths: literal text at even places, parameter names at odd places. */
const pieces = new Map<string, string[]>();

function piecesOf(pattern: string): string[] {
  let split = pieces.get(pattern);
  if (split === undefined) {
    split = pattern.split(/:([a-zA-Z][a-zA-Z0-9]*)/);
    // Patterns come from the route table and the handlers' links, a fixed set; anything else is not kept.
    if (pieces.size < 1000) pieces.set(pattern, split);
  }
  return split;
}

/** Builds a path from a pattern (regexparam's inject): the one place links and Location headers come from. */
export function buildPath(pattern: string, params: Readonly<Record<string, string>>): string {
  const split = piecesOf(pattern);
  let path = split[0]!;
  for (let index = 1; index < split.length; index += 2) {
    const key = split[index]!;
    const value = params[key];
    if (value === undefined) throw new Error(`buildPath: no value for :${key} in ${pattern}`);
    path += encodeURIComponent(value) + split[index + 1]!;
  }
  return path;
}
