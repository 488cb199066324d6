// Stage 5, negotiation, once: the representation the answer is rendered in, from Accept and what the route offers.
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../http/http-error.ts';
import { negotiateMediaType, REPRESENTATION_TYPES } from '../http/negotiate.ts';
import type { Route } from '../resources/context.ts';

export interface Negotiated {
  mediaType: string;
  /** Chosen from Accept, so the answer varies with it (Vary: Accept). */
  negotiated: boolean;
}

const DEFAULT_TYPE = 'application/json';

/** What every answer may be rendered in; an error before the route is known (404, 405, 400) negotiates this. */
export function negotiateAnyRoute(req: IncomingMessage): Negotiated {
  return { mediaType: negotiateMediaType(req.headers.accept, REPRESENTATION_TYPES) ?? DEFAULT_TYPE, negotiated: false };
}

/**
 * A raw route (bytes, not a representation) renders only its errors, in what Accept prefers, with no Vary.
 * The others: JSON, XML or HTML, and the route's own extra types (text/event-stream), which only a client
 * naming them gets: they come last in the server's order, so `*\/*` still means JSON. None acceptable: 406.
 */
export function negotiateRepresentation(req: IncomingMessage, route: Route): Negotiated {
  if (route.raw) return negotiateAnyRoute(req);
  const available = route.extraMediaTypes ? [...REPRESENTATION_TYPES, ...route.extraMediaTypes] : REPRESENTATION_TYPES;
  const chosen = negotiateMediaType(req.headers.accept, available);
  // The 406 itself is not negotiated (http/send.ts: no Vary), whichever route refused.
  if (chosen === null) throw new HttpError('ERR_NOT_ACCEPTABLE', `Available representations: ${available.join(', ')}`);
  return { mediaType: chosen, negotiated: true };
}
