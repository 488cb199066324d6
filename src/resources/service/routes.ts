// Service endpoints: the index, health, the OpenAPI document and its readable form.
import { etagOfBytes } from '../../http/conditional.ts';
import type { Reply, RequestContext, Route } from '../context.ts';
import type { Representation } from '../../representations/representation.ts';
import { renderDocsPage, DOCS_CONTENT_SECURITY_POLICY } from '../../openapi/docs-page.ts';
import { one } from '../../openapi/route-doc.ts';
import { serverVersion } from '../../version.ts';
import { refusedWritesError } from '../refused-writes-error.ts';
import { getIndex } from './index-page.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { PATHS } from '../../paths.ts';

/** The same answer every time: one object, so http/send.ts renders and tags it once per media type. */
const HEALTH = { kind: 'single', type: 'health', enveloped: false, data: { status: 'ok' }, shared: true } as const satisfies Representation;

const HEALTHY: Reply = { status: 200, headers: { 'Cache-Control': 'no-store' }, representation: HEALTH };

/**
 * 200 while the database takes writes. After a write was refused (read-only, full), 503 with the refusal's own
 * code until the store's check passes: each /health then commits one write (docs/operations.md), so a balancer
 * that stopped sending traffic still sees the server come back.
 */
function health(ctx: RequestContext): Reply | Promise<Reply> {
  const store = ctx.services.storage;
  if (store.writesRefused === undefined) return HEALTHY;
  return store.checkWrites().then((refusal) => {
    if (refusal === undefined) return HEALTHY;
    throw refusedWritesError(refusal);
  });
}

interface RenderedDocument {
  json: { bytes: Buffer; etag: string };
  html: { bytes: Buffer; etag: string };
}

function withEtag(text: string): { bytes: Buffer; etag: string } {
  const bytes = Buffer.from(text);
  return { bytes, etag: etagOfBytes(bytes) };
}

/**
 * The service routes over the full route table, which is handed in (all-routes.ts passes itself, read at the
 * first request) rather than imported, so the table and this part of it do not import each other.
 */
export function serviceRoutes(allRoutes: () => readonly Route[]): Route[] {
  // The route table never changes while the process runs: each base path's document is built once.
  const rendered = new Map<string, RenderedDocument>();

  const currentDocument = (ctx: RequestContext): RenderedDocument => {
    const basePath = ctx.services.config.basePath;
    let done = rendered.get(basePath);
    if (done === undefined) {
      const document = buildOpenApiDocument(allRoutes(), basePath, serverVersion());
      done = { json: withEtag(JSON.stringify(document)), html: withEtag(renderDocsPage(document, ctx.href(PATHS.openApi))) };
      rendered.set(basePath, done);
    }
    return done;
  };

  const openApi = (ctx: RequestContext): Reply => {
    // A generator or a cache asks again with If-None-Match and gets 304 until the server changes.
    const { json } = currentDocument(ctx);
    return { status: 200, headers: { ETag: json.etag }, bytes: { data: json.bytes, contentType: 'application/json' } };
  };

  /** The same document as a self-contained page: no script, no request to any other origin. */
  const docs = (ctx: RequestContext): Reply => {
    const { html } = currentDocument(ctx);
    return {
      status: 200,
      headers: { 'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY, ETag: html.etag },
      bytes: { data: html.bytes, contentType: 'text/html; charset=utf-8' },
    };
  };

  return [
    {
      method: 'GET', pattern: PATHS.index, handler: getIndex, auth: 'optional', summary: 'The index: links to the collections and service documents (as HTML, the landing page)',
      responses: { 200: one('Index', 'A map of the API (as HTML, the landing page with log-in and sign-up forms)') },
    },
    { method: 'GET', pattern: PATHS.health, handler: health, auth: 'public', summary: 'Health check', responses: { 200: one('Health', 'The server is up and its database takes writes') } },
    {
      method: 'GET', pattern: PATHS.openApi, handler: openApi, auth: 'public', raw: true, summary: 'This OpenAPI 3.1 document',
      responses: { 200: { description: 'The document; its readable form is /docs', raw: ['application/json'], headers: ['ETag'] } },
    },
    {
      method: 'GET', pattern: PATHS.docs, handler: docs, auth: 'public', raw: true, summary: 'This document as a readable HTML page (no scripts)',
      responses: { 200: { description: 'Every operation, its parameters, body and answers, and every schema', raw: ['text/html'], headers: ['ETag'] } },
    },
  ];
}
