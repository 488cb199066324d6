// GET /docs: the OpenAPI document as one self-contained HTML page (no script, nothing from elsewhere),
// listing every operation with its parameters, body and answers, then every schema.
import { createHash } from 'node:crypto';
import { escapeHtml as h } from '../representations/escape.ts';
import type { JsonSchema } from './schema.ts';

type Doc = JsonSchema;

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;max-width:70rem;margin:0 auto;padding:1rem;color:#1d1d1f}
h2{border-bottom:2px solid #ccc;margin-top:2.5rem}section.op{border:1px solid #ddd;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
.m{display:inline-block;min-width:4.5rem;font-weight:700;font-family:monospace}.GET{color:#0a6}.POST{color:#06c}.PUT{color:#a60}.PATCH{color:#850}.DELETE{color:#c22}
code{background:#f3f3f3;padding:0 .2rem}table{border-collapse:collapse;width:100%;margin:.4rem 0}td,th{border:1px solid #ddd;padding:.2rem .4rem;text-align:left;vertical-align:top}
th{background:#f6f6f6}.muted{color:#666}@media (prefers-color-scheme:dark){body{background:#111;color:#ddd}code,th{background:#222}td,th,section.op{border-color:#444}}`;

/** CSP: nothing loads or runs; only this page's own stylesheet, by hash (CSP Level 3 §8.3). */
export const DOCS_CONTENT_SECURITY_POLICY = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; frame-ancestors 'none'`;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function schemaName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** A one-line type: a link to a named schema, array of ..., a union, an enum, or the type with its limits. */
export function typeOf(schema: Doc | undefined): string {
  if (schema === undefined) return 'any';
  if (typeof schema['$ref'] === 'string') {
    const name = schemaName(schema['$ref']);
    return `<a href="#schema-${h(name)}">${h(name)}</a>`;
  }
  const union = (schema['anyOf'] ?? schema['oneOf']) as Doc[] | undefined;
  if (union) return union.map(typeOf).join(' | ');
  if (schema['const'] !== undefined) return `<code>${h(JSON.stringify(schema['const']))}</code>`;
  if (Array.isArray(schema['enum'])) return (schema['enum'] as unknown[]).map((value) => `<code>${h(String(value))}</code>`).join(' | ');
  const types = Array.isArray(schema['type']) ? schema['type'] as string[] : [String(schema['type'] ?? 'any')];
  return types.map((type) => {
    if (type === 'array') return `array of ${typeOf(schema['items'] as Doc | undefined)}`;
    const limits = [
      schema['minLength'] !== undefined ? `${schema['minLength']}-${schema['maxLength']} chars` : '',
      schema['pattern'] ? `<code>${h(String(schema['pattern']))}</code>` : '',
      schema['format'] ? String(schema['format']) : '',
    ].filter(Boolean).join(', ');
    return `${h(type)}${limits ? ` <span class="muted">(${limits})</span>` : ''}`;
  }).join(' | ');
}

function propertiesTable(schema: Doc): string {
  const properties = (schema['properties'] ?? {}) as Record<string, Doc>;
  const required = new Set((schema['required'] ?? []) as string[]);
  const rows = Object.entries(properties).map(([name, property]) => `<tr><td><code>${h(name)}</code>${required.has(name) ? '' : ' <span class="muted">optional</span>'}</td>`
    + `<td>${typeOf(property)}</td><td>${h(String(property['description'] ?? ''))}</td></tr>`);
  if (rows.length === 0) return '';
  return `<table><tr><th>field</th><th>type</th><th>meaning</th></tr>${rows.join('')}</table>`;
}

function parametersTable(parameters: Doc[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters.map((parameter) => `<tr><td><code>${h(String(parameter['name']))}</code>${parameter['required'] ? ' <b>required</b>' : ''}</td>`
    + `<td>${h(String(parameter['in']))}</td><td>${typeOf(parameter['schema'] as Doc)}</td><td>${h(String(parameter['description'] ?? ''))}</td></tr>`);
  return `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>type</th><th>meaning</th></tr>${rows.join('')}</table>`;
}

function contentList(content: Doc | undefined): string {
  if (!content) return '';
  return Object.entries(content as Record<string, Doc>).map(([type, media]) => `<code>${h(type)}</code> ${typeOf(media['schema'] as Doc)}`).join('<br>');
}

function responsesTable(responses: Record<string, Doc>, components: Record<string, Doc>): string {
  const rows = Object.entries(responses).map(([status, response]) => {
    const resolved = typeof response['$ref'] === 'string' ? components[schemaName(response['$ref'])] ?? {} : response;
    const headers = Object.keys((resolved['headers'] ?? {}) as object).map((name) => `<code>${h(name)}</code>`).join(', ');
    return `<tr><td>${h(status)}</td><td>${h(String(resolved['description'] ?? ''))}</td><td>${contentList(resolved['content'] as Doc)}</td><td>${headers}</td></tr>`;
  });
  return `<h4>Answers</h4><table><tr><th>status</th><th>meaning</th><th>body</th><th>headers</th></tr>${rows.join('')}</table>`;
}

function operationSection(method: string, path: string, op: Doc, responses: Record<string, Doc>): string {
  const security = Array.isArray(op['security']) && (op['security'] as unknown[]).length === 0 ? 'public: no token needed' : 'needs a session (bearer token or cookie)';
  const body = op['requestBody'] as Doc | undefined;
  return `<section class="op" id="${h(String(op['operationId']))}"><h3><span class="m ${method.toUpperCase()}">${method.toUpperCase()}</span> <code>${h(path)}</code></h3>`
    + `<p>${h(String(op['summary'] ?? ''))} <span class="muted">· ${h(String(op['operationId']))} · ${security}</span></p>`
    + parametersTable((op['parameters'] ?? []) as Doc[])
    + (body ? `<h4>Body${body['required'] === false ? ' (optional)' : ''}</h4><p>${contentList(body['content'] as Doc)}</p>` : '')
    + responsesTable(op['responses'] as Record<string, Doc>, responses)
    + '</section>';
}

export function renderDocsPage(document: Doc, documentHref: string): string {
  const info = document['info'] as Doc;
  const paths = document['paths'] as Record<string, Record<string, Doc>>;
  const components = document['components'] as Record<string, Record<string, Doc>>;
  const schemas = components['schemas'] ?? {};
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS.filter((name) => item[name])) {
      const op = item[method]!;
      const tag = ((op['tags'] ?? ['other']) as string[])[0]!;
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationSection(method, path, op, components['responses'] ?? {})]);
    }
  }
  const tags = (document['tags'] ?? []) as Doc[];
  const toc = tags.map((tag) => `<li><a href="#tag-${h(String(tag['name']))}">${h(String(tag['name']))}</a> <span class="muted">${h(String(tag['description'] ?? ''))}</span></li>`).join('');
  const sections = tags.map((tag) => `<h2 id="tag-${h(String(tag['name']))}">${h(String(tag['name']))}</h2>${(byTag.get(String(tag['name'])) ?? []).join('')}`).join('');
  const schemaSections = Object.entries(schemas).map(([name, schema]) => `<section class="op" id="schema-${h(name)}"><h3>${h(name)}</h3>`
    + `<p>${h(String(schema['description'] ?? ''))}</p>${propertiesTable(schema)}`
    + (schema['oneOf'] ? `<p>One of: ${typeOf(schema)}</p>` : '') + '</section>').join('');
  // The description's `code` spans (Markdown, as OpenAPI allows) become <code>; everything else stays text.
  const description = String(info['description'] ?? '').split('\n').filter(Boolean)
    .map((line) => `<p>${h(line).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>${h(String(info['title']))} ${h(String(info['version']))}</title><style>${STYLE}</style></head><body><header>`
    + `<h1>${h(String(info['title']))} <span class="muted">${h(String(info['version']))}</span></h1>${description}`
    + `<p>Machine-readable: <a href="${h(documentHref)}">OpenAPI 3.1 document</a>. Base path: <code>${h(String((document['servers'] as Doc[])[0]?.['url']))}</code></p></header>`
    + `<nav><h2>Contents</h2><ul>${toc}<li><a href="#schemas">schemas</a></li></ul></nav><main>${sections}<h2 id="schemas">Schemas</h2>${schemaSections}</main></body></html>`;
}
