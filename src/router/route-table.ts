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
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index]!;
    const raw = match[index + 1]!;
    // Most segments are plain ids: nothing to decode.
    if (!raw.includes('%')) {
      params[key] = raw;
      continue;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // Named like a field, so a client learns which part of the path was wrong.
      throw new HttpError('ERR_BAD_PATH', `The path segment "${raw}" is not valid percent-encoding`, {
        errors: [{ field: key, message: 'must be valid percent-encoded UTF-8' }],
      });
    }
    // No id, login or emoji holds a NUL, and PostgreSQL text cannot hold one at all (docs/api.md): refused
    // here, as in a query value, rather than as a database error (a 500) on one backend and a 404 on the other.
    if (decoded.includes('\0')) {
      throw new HttpError('ERR_BAD_PATH', `The path segment "${raw}" holds a NUL character`, {
        errors: [{ field: key, message: 'must not contain NUL characters' }],
      });
    }
    params[key] = decoded;
  }
  return params;
}

/** The routes of one pattern, in table order, with what the path allows worked out once. */
interface PatternGroup<H> {
  regex: RegExp;
  pattern: string;
  byMethod: Map<string, CompiledRoute<H>>;
  first: CompiledRoute<H>;
  allowed: string[];
  /** True for a pattern without parameters, found by its exact path. */
  fixed: boolean;
}

export class RouteTable<H> {
  readonly routes: readonly CompiledRoute<H>[];
  /** One group per pattern in the order patterns first appear: the first that matches decides the resource. */
  private readonly groups: PatternGroup<H>[] = [];
  /** Patterns without parameters by their path, each with its place in `groups`. */
  private readonly fixedPaths = new Map<string, number>();

  constructor(definitions: readonly RouteDefinition<H>[]) {
    const seen = new Set<string>();
    this.routes = definitions.map((definition) => {
      const compiled = compilePattern(definition.pattern);
      const shape = `${definition.method} ${compiled.regex.source}`;
      if (seen.has(shape)) throw new Error(`duplicate route ${definition.method} ${definition.pattern}`);
      seen.add(shape);
      return { ...definition, keys: compiled.keys, regex: compiled.regex };
    });
    const byPattern = new Map<string, PatternGroup<H>>();
    for (const route of this.routes) {
      let group = byPattern.get(route.pattern);
      if (!group) {
        group = { regex: route.regex, pattern: route.pattern, byMethod: new Map(), first: route, allowed: [], fixed: route.keys.length === 0 };
        byPattern.set(route.pattern, group);
        this.groups.push(group);
      }
      if (!group.byMethod.has(route.method)) group.byMethod.set(route.method, route);
    }
    this.groups.forEach((group, index) => {
      group.allowed = allowedMethods(group.byMethod.keys());
      if (group.fixed) this.fixedPaths.set(group.pattern, index);
    });
  }

  /** HEAD falls back to GET; OPTIONS is found for every known path. Throws 400 on bad percent-encoding. */
  match(method: string, path: string): RouteMatch<H> {
    // A fixed path decides at once unless an earlier pattern (one with parameters) also matches it.
    const fixedAt = this.fixedPaths.get(path) ?? this.groups.length;
    let group: PatternGroup<H> | undefined;
    let exec: RegExpExecArray | null = null;
    for (let index = 0; index < fixedAt; index += 1) {
      const candidate = this.groups[index]!;
      if (candidate.fixed) continue;
      exec = candidate.regex.exec(path);
      if (exec) {
        group = candidate;
        break;
      }
    }
    group ??= this.groups[fixedAt];
    if (!group) return { kind: 'not-found' };
    const wanted = method === 'HEAD' ? 'GET' : method;
    const hit = group.byMethod.get(wanted) ?? (method === 'OPTIONS' ? group.first : undefined);
    if (!hit) return { kind: 'method-not-allowed', allowed: group.allowed, pattern: group.pattern };
    return { kind: 'found', route: hit, params: exec ? decodeParams(hit.keys, exec) : {}, allowed: group.allowed };
  }
}
