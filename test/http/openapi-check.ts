// Checks one HTTP exchange against the OpenAPI document: the status is one the operation documents, the
// headers it marks required are there and have its form, a JSON body matches its schema (Ajv, JSON Schema
// 2020-12), and a JSON request body the server accepted fits the request schema. test/http/client.ts runs
// it on every answer, so the suite fails the moment server and document differ.
import type { IncomingHttpHeaders } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApiDocument } from '../../src/openapi/document.ts';
import { ALL_ROUTES } from '../../src/resources/all-routes.ts';
import { serverVersion } from '../../src/version.ts';

type Json = Record<string, any>;

export interface CheckedExchange {
  method: string;
  /** The path and query as sent, base path included. */
  url: string;
  basePath: string;
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body the request carried, if any: a 2xx answer means the server took it, so it must fit the document. */
  request?: { contentType: string | undefined; text: string };
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** The document as the server builds it (a test in service.test.ts proves it equals the served one). */
export const DOCUMENT: Json = buildOpenApiDocument(ALL_ROUTES, '', serverVersion());

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// The components live under one id, so `#/components/schemas/...` references resolve as in the document.
ajv.addSchema({ $id: 'openapi', components: DOCUMENT['components'] });
const compiled = new Map<string, ValidateFunction>();

const PATHS = Object.entries(DOCUMENT['paths'] as Record<string, Json>).map(([template, item]) => ({
  template,
  item,
  regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

function validatorFor(schema: Json): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    // References into the document's components, at any depth, point at the schema registered above.
    validate = ajv.compile(JSON.parse(key.replaceAll('"#/components/', '"openapi#/components/')) as Json);
    compiled.set(key, validate);
  }
  return validate;
}

function resolveResponse(response: Json): Json {
  const ref = response['$ref'];
  if (typeof ref !== 'string') return response;
  return DOCUMENT['components']['responses'][ref.slice(ref.lastIndexOf('/') + 1)];
}

function mediaType(headers: IncomingHttpHeaders): string | undefined {
  return headers['content-type']?.split(';')[0]!.trim().toLowerCase();
}

const PROBLEM_RESPONSE = { description: 'A problem', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };

/** The body and headers against one response object of the document. */
function checkAgainst(where: string, response: Json, exchange: CheckedExchange): void {
  for (const [name, header] of Object.entries((response['headers'] ?? {}) as Json)) {
    const value = exchange.headers[name.toLowerCase()];
    if (value === undefined) {
      if (header['required']) throw new Error(`${where}: the document requires the header ${name}, the answer has none`);
      continue;
    }
    // Set-Cookie may come several times; every other field once.
    for (const one of Array.isArray(value) ? value : [value]) {
      if (!validatorFor(header['schema'] as Json)(one)) throw new Error(`${where}: the header ${name}: ${one} does not match ${JSON.stringify(header['schema'])}`);
    }
  }
  const noBody = exchange.method === 'HEAD' || exchange.status === 204 || exchange.status === 304;
  if (noBody) {
    if (exchange.text !== '') throw new Error(`${where}: a ${exchange.method === 'HEAD' ? 'HEAD' : exchange.status} answer must have no body`);
    return;
  }
  const content = response['content'] as Json | undefined;
  if (content === undefined) return;
  const type = mediaType(exchange.headers);
  if (type === undefined || content[type] === undefined) {
    throw new Error(`${where}: Content-Type ${type} is not one the document gives (${Object.keys(content).join(', ')})`);
  }
  const schema = content[type]['schema'] as Json | undefined;
  if (!type.endsWith('json') || schema === undefined || exchange.text === '') return;
  const validate = validatorFor(schema);
  if (!validate(JSON.parse(exchange.text))) {
    const errors = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`).join('; ');
    throw new Error(`${where}: the body does not match the document: ${errors}\nbody: ${exchange.text.slice(0, 500)}`);
  }
}

/**
 * A JSON body the server accepted must be one the document allows: were the document stricter than the
 * validators, a generated client would refuse to send what the server takes. (A body the server refuses
 * says nothing: many rules, such as a replyTo of the same chat, are beyond a schema.)
 */
function checkRequestBody(where: string, operation: Json, exchange: CheckedExchange): void {
  const type = exchange.request?.contentType?.split(';')[0]!.trim().toLowerCase();
  // An operation without a body ignores one sent anyway (a GET or DELETE with a body): nothing was taken.
  if (operation['requestBody'] === undefined) return;
  if (exchange.request === undefined || exchange.request.text === '' || type === undefined || !type.endsWith('json')) return;
  const media = operation['requestBody']['content'][type] as Json | undefined;
  if (media === undefined) throw new Error(`${where}: the server took a ${type} body the document does not list`);
  const validate = validatorFor(media['schema'] as Json);
  // A leading byte order mark is ignored by the server, as RFC 8259 §8.1 allows: the body is the JSON after it.
  if (!validate(JSON.parse(exchange.request.text.replace(/^\uFEFF/, '')))) {
    const errors = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`).join('; ');
    throw new Error(`${where}: the server took a body the document refuses: ${errors}\nbody: ${exchange.request.text.slice(0, 300)}`);
  }
}

/** Throws an Error that says what differs; returns the operationId checked, or undefined for answers of no operation. */
export function checkExchange(exchange: CheckedExchange): string | undefined {
  const where = `${exchange.method} ${exchange.url} -> ${exchange.status}`;
  // The path as it went on the wire: the WHATWG URL parser of http.request resolves dot segments and `\`.
  const rawPath = new URL(`http://127.0.0.1${exchange.url}`).pathname;
  const path = exchange.basePath && (rawPath === exchange.basePath || rawPath.startsWith(`${exchange.basePath}/`))
    ? rawPath.slice(exchange.basePath.length) || '/' : exchange.basePath ? undefined : rawPath;
  const found = path === undefined ? undefined : PATHS.find((candidate) => candidate.regex.test(path));
  if (exchange.method === 'OPTIONS' && found && exchange.status === 204) {
    // RFC 9110 §9.3.7, docs/protocol.md §7.1: OPTIONS is answered from the route table for every path.
    if (exchange.headers['allow'] === undefined) throw new Error(`${where}: OPTIONS must answer Allow`);
    return undefined;
  }
  const operation = found?.item[exchange.method === 'HEAD' ? 'get' : exchange.method.toLowerCase()] as Json | undefined;
  if (operation === undefined) {
    // No operation: an unknown path (404), a method the path lacks (405 with Allow), or a request refused
    // before routing (400 malformed, 408, 431). Still a problem document.
    const allowed = found ? [405, 400] : [404, 400];
    if (![...allowed, 408, 431].includes(exchange.status)) throw new Error(`${where}: no operation answers this, yet the status is not ${allowed.join(' or ')}`);
    if (exchange.status === 405 && exchange.headers['allow'] === undefined) throw new Error(`${where}: 405 must carry Allow`);
    if (mediaType(exchange.headers) === 'application/problem+json') checkAgainst(where, PROBLEM_RESPONSE, exchange);
    return undefined;
  }
  const documented = operation['responses'][String(exchange.status)] as Json | undefined;
  if (documented === undefined) {
    throw new Error(`${where}: ${operation['operationId']} documents ${Object.keys(operation['responses']).join(', ')}, not ${exchange.status}`);
  }
  checkAgainst(`${where} (${operation['operationId']})`, resolveResponse(documented), exchange);
  if (exchange.status < 300) checkRequestBody(`${where} (${operation['operationId']})`, operation, exchange);
  return operation['operationId'] as string;
}
