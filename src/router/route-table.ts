// The ordered route table: match a method and path to a handler, or say which methods the path allows.
import { HttpError } from '../http/http-error.ts';
import { compilePattern } from './compile-pattern.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDefinition<H> {
  method: Method;
  pattern: string;
  handler: H;
}

export interface CompiledRoute<H> extends RouteDefinition<H> {
  keys: string[];
  regex: RegExp;
}

export type RouteMatch<H> =
  | { kind: 'found'; route: CompiledRoute<H>; params: Record<string, string>; allowed: string[] }
  | { kind: 'method-not-allowed'; allowed: string[]; pattern: string }
  | { kind: 'not-found' };

/** Methods a path answers: its routes' methods, HEAD wherever GET is, and OPTIONS everywhere (RFC 9110 §9.3). */
function allowedMethods(methods: Iterable<string>): string[] {
  const set = new Set(methods);
  if (set.has('GET')) set.add('HEAD');
  set.add('OPTIONS');
  const order = ['OPTIONS', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
  return order.filter((method) => set.has(method));
}

function decodeParams(keys: string[], match: RegExpExecArray): Record<string, string> {
  const params: Record<string, string> = {};
  keys.forEach((key, index) => {
    const raw = match[index + 1]!;
    try {
      params[key] = decodeURIComponent(raw);
    } catch {
      // Named like a field, so a client learns which part of the path was wrong.
      throw new HttpError('ERR_BAD_PATH', `The path segment "${raw}" is not valid percent-encoding`, {
        errors: [{ field: key, message: 'must be valid percent-encoded UTF-8' }],
      });
    }
  });
  return params;
}

export class RouteTable<H> {
  readonly routes: readonly CompiledRoute<H>[];

  constructor(definitions: readonly RouteDefinition<H>[]) {
    const seen = new Set<string>();
    this.routes = definitions.map((definition) => {
      const compiled = compilePattern(definition.pattern);
      const shape = `${definition.method} ${compiled.regex.source}`;
      if (seen.has(shape)) throw new Error(`duplicate route ${definition.method} ${definition.pattern}`);
      seen.add(shape);
      return { ...definition, keys: compiled.keys, regex: compiled.regex };
    });
  }

  /** HEAD falls back to GET; OPTIONS is found for every known path. Throws 400 on bad percent-encoding. */
  match(method: string, path: string): RouteMatch<H> {
    const candidates: { route: CompiledRoute<H>; exec: RegExpExecArray }[] = [];
    for (const route of this.routes) {
      const exec = route.regex.exec(path);
      if (exec) candidates.push({ route, exec });
    }
    if (candidates.length === 0) return { kind: 'not-found' };
    // The first pattern that matches decides the path's resource; later ones with other shapes do not mix in.
    const pattern = candidates[0]!.route.pattern;
    const samePath = candidates.filter((candidate) => candidate.route.pattern === pattern);
    const allowed = allowedMethods(samePath.map((candidate) => candidate.route.method));
    const wanted = method === 'HEAD' ? 'GET' : method;
    const hit = samePath.find((candidate) => candidate.route.method === wanted)
      ?? (method === 'OPTIONS' ? samePath[0] : undefined);
    if (!hit) return { kind: 'method-not-allowed', allowed, pattern };
    return { kind: 'found', route: hit.route, params: decodeParams(hit.route.keys, hit.exec), allowed };
  }
}
