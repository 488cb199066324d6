// Typed JSON Schema (2020-12, as OpenAPI 3.1 uses it) builders: each schema also carries, for the
// type checker only, the TypeScript type of the values it describes, so a serializer that returns
// `Infer<typeof SCHEMA>` cannot leave out a required field or add one the document does not name.
declare const VALUE: unique symbol;

export type JsonSchema = { [keyword: string]: unknown };

/** A JSON Schema object; `T` exists only for the type checker and is never present at run time. */
export type Schema<T> = JsonSchema & { readonly [VALUE]?: T };

export type Infer<S> = S extends Schema<infer T> ? T : never;

type Shape = Record<string, Schema<unknown>>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** Required keys take their value's type; keys named in `Optional` may be absent. */
export type ObjectOf<P extends Shape, Optional extends keyof P> = Simplify<
  { [K in Exclude<keyof P, Optional>]: Infer<P[K]> } & { [K in Optional]?: Infer<P[K]> }
>;

/** The same rule object the body validators use (min/max in characters, i.e. code points). */
export interface TextRule {
  min: number;
  max: number;
  pattern?: RegExp;
}

export const ID_REGEX = '^[A-Za-z0-9_-]{1,64}$';

export function text(rule?: TextRule, extra: JsonSchema = {}): Schema<string> {
  const schema: JsonSchema = { type: 'string' };
  if (rule) {
    schema['minLength'] = rule.min;
    schema['maxLength'] = rule.max;
    if (rule.pattern) schema['pattern'] = rule.pattern.source;
  }
  return { ...schema, ...extra };
}

/** docs/protocol.md §1.2: every id is an opaque string of 1-64 letters, digits, `_` or `-`. */
export function id(description?: string): Schema<string> {
  return { type: 'string', pattern: ID_REGEX, ...(description ? { description } : {}) };
}

/** docs/protocol.md §1.3: ISO 8601 UTC with milliseconds. */
export function timestamp(description?: string): Schema<string> {
  return { type: 'string', format: 'date-time', examples: ['2026-11-21T09:30:00.000Z'], ...(description ? { description } : {}) };
}

export function integer(extra: JsonSchema = {}): Schema<number> {
  return { type: 'integer', ...extra };
}

export function number(extra: JsonSchema = {}): Schema<number> {
  return { type: 'number', ...extra };
}

export function boolean(description?: string): Schema<boolean> {
  return { type: 'boolean', ...(description ? { description } : {}) };
}

export function oneOfValues<const V extends string>(values: readonly V[], description?: string): Schema<V> {
  return { type: 'string', enum: [...values], ...(description ? { description } : {}) };
}

export function nullable<T>(schema: Schema<T>): Schema<T | null> {
  if (typeof schema['type'] === 'string') return { ...schema, type: [schema['type'], 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

export function arrayOf<T>(items: Schema<T>, extra: JsonSchema = {}): Schema<T[]> {
  return { type: 'array', items, ...extra };
}

/** Adds a description (and an example) without changing the type. */
export function describe<T>(schema: Schema<T>, description: string, example?: unknown): Schema<T> {
  return { ...schema, description, ...(example === undefined ? {} : { examples: [example] }) };
}

/**
 * An object with exactly these properties (unknown ones are refused: docs/protocol.md §1.5 for requests, and
 * for answers the document must name every field the server sends). `optional` lists those that may be
 * absent; every other property is required.
 */
export function object<P extends Shape, const O extends keyof P = never>(
  properties: P,
  options: { optional?: readonly O[]; description?: string; open?: boolean; example?: ObjectOf<P, O> } = {},
): Schema<ObjectOf<P, O>> {
  const optional = new Set<keyof P>(options.optional ?? []);
  const required = Object.keys(properties).filter((key) => !optional.has(key));
  return {
    type: 'object',
    ...(options.description ? { description: options.description } : {}),
    ...(required.length > 0 ? { required } : {}),
    properties,
    additionalProperties: options.open === true,
    ...(options.example === undefined ? {} : { examples: [options.example] }),
  };
}

/** The same object with a leading `type` member naming its kind (the items of a search answer). */
export function tagged<const N extends string, T>(name: N, schema: Schema<T>): Schema<{ type: N } & T> {
  // The kind's own example lacks `type`; the search answer shows none.
  const { examples: _examples, ...plain }: JsonSchema = schema;
  return {
    ...plain,
    required: ['type', ...(schema['required'] as string[] ?? [])],
    properties: { type: { const: name }, ...(schema['properties'] as object) },
  };
}

/** A reference to a named schema of components.schemas; the type is that schema's. */
export function ref<T>(name: string, _schema: Schema<T>): Schema<T> {
  return { $ref: `#/components/schemas/${name}` };
}
