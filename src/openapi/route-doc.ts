// What a route says about itself for the OpenAPI document: its answers by status, its query and body.
// Routes declare these next to their handler; openapi/document.ts turns them into the document.
import type { CollectionSpec } from '../parsers/query.ts';
import type { ResourceName } from '../representations/resource-kinds.ts';
import type { JsonSchema } from './schema.ts';

/** Response header fields the document names (components.headers). */
export type HeaderName =
  | 'ETag' | 'Location' | 'Link' | 'Retry-After' | 'RateLimit' | 'RateLimit-Policy' | 'WWW-Authenticate'
  | 'Set-Cookie' | 'Cache-Control' | 'Allow' | 'Content-Disposition';

export interface ResponseDoc {
  description: string;
  /**
   * The JSON body, as a component name ('Chat'), an envelope or page of one ('Chat' + how), or a schema.
   * Absent: no body (204, 303, 304).
   */
  body?: { resource: ResourceName; as: 'single' | 'page' } | { schema: JsonSchema; name?: string };
  /** Media types of a body that is not negotiated (an image, this document): sent as they are. */
  raw?: readonly string[];
  /** Header fields every such answer carries. */
  headers?: readonly HeaderName[];
  /** Header fields such an answer may carry. */
  optionalHeaders?: readonly HeaderName[];
}

export type SuccessStatus = 200 | 201 | 204 | 206 | 303 | 304;

export type RouteResponses = Partial<Record<SuccessStatus, ResponseDoc>>;

/** A query parameter the handler reads itself, besides the query language (after, before, q, wait). */
export interface ParameterDoc {
  name: string;
  description: string;
  schema: JsonSchema;
  required?: boolean;
  /** 'query' unless given; a 'path' entry describes a path parameter that is not an id. */
  in?: 'query' | 'header' | 'path';
}

export interface QueryDoc {
  /** The collection's fields: each may be filtered and sorted on (docs/protocol.md §6.3). */
  fields?: CollectionSpec;
  parameters?: readonly ParameterDoc[];
}

export interface RequestBodyDoc {
  contentTypes: readonly string[];
  schema?: JsonSchema;
  /** A schema for one media type where the forms differ (an avatar as a file part or as base64). */
  schemaByType?: Readonly<Record<string, JsonSchema>>;
  /** False when the body may be left out (PUT of a member, PATCH /session). */
  required?: boolean;
  example?: unknown;
}

/** 200 with one resource, in its envelope when it travels in one; a strong ETag (docs/protocol.md §7.7). */
export function one(resource: ResourceName, description = `The ${resource.toLowerCase()}`): ResponseDoc {
  return { description, body: { resource, as: 'single' }, headers: ['ETag'] };
}

/** 201 with the new resource, its Location and ETag. */
export function created(resource: ResourceName, description = `Created: the new ${resource.toLowerCase()}`): ResponseDoc {
  return { description, body: { resource, as: 'single' }, headers: ['Location', 'ETag'] };
}

/**
 * 200 with a page of a collection: {"data": [...], "meta"}, the ETag of what the page shows, and Link
 * next/prev where they exist (RFC 8288).
 */
export function page(resource: ResourceName, description = `A page of ${resource.toLowerCase()}s`): ResponseDoc {
  return { description, body: { resource, as: 'page' }, headers: ['ETag'], optionalHeaders: ['Link'] };
}

export function noContent(description: string): ResponseDoc {
  return { description };
}
