// One request from arrival to the last byte: watched (metrics, log, trace), answered by the pipeline or as a
// problem, then rendered and sent (http/send.ts). Never throws: no request may end the process (docs/operations.md).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatErrorLine } from '../http/access-log.ts';
import { ClientPresence } from '../http/client-presence.ts';
import { corsHeaders, preflightMethods, type CorsRequest } from '../http/cors.ts';
import { observeExchange, type ExchangeLabels, type ObserveOptions } from '../http/observe-exchange.ts';
import { sendReply } from '../http/send.ts';
import { UNMATCHED_ROUTE } from '../metrics/server-metrics.ts';
import type { AppServices, Reply, Route } from '../resources/context.ts';
import type { RouteTable } from '../router/route-table.ts';
import { answerRequest } from './answer-request.ts';
import { Exchange } from './exchange.ts';
import { negotiateAnyRoute } from './negotiate-representation.ts';
import { problemReply } from './problem-reply.ts';

/** What every request of one app shares: decided once, at start. */
export interface Site {
  services: AppServices;
  routes: RouteTable<Route>;
  /** Set when the server stops accepting: every answer then closes its connection (RFC 9112 §9.6). */
  draining: boolean;
  /** What watches each exchange (http/observe-exchange.ts), or undefined when nothing does (no metrics, log or trace). */
  watching: Omit<ObserveOptions, 'requestId' | 'started'> | undefined;
}

/** The watch of one exchange; without one, the labels routing fills in go nowhere. */
function watch(site: Site, req: IncomingMessage, res: ServerResponse, requestId: string, started: number): ExchangeLabels {
  if (site.watching === undefined) return { route: UNMATCHED_ROUTE, userId: undefined };
  return observeExchange(req, res, { ...site.watching, requestId, started });
}

export async function handleRequest(site: Site, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { config } = site.services;
  const started = performance.now();
  const requestId = randomUUID();
  const labels = watch(site, req, res, requestId, started);
  // Every answer's own headers go to writeHead with the rest, at once (http/send.ts): nothing is set on the
  // response before, which keeps Node on its fast path (one pass over the headers, not setHeader each).
  const baseHeaders: Record<string, string> = { 'X-Request-Id': requestId };
  if (site.draining) baseHeaders['Connection'] = 'close';
  const cors: CorsRequest = { origin: req.headers.origin, method: req.method ?? 'GET', requestMethod: req.headers['access-control-request-method'] };
  if (config.corsOrigins.length > 0) Object.assign(baseHeaders, corsHeaders(config.corsOrigins, cors));
  const ex = Exchange.start(req, requestId, site.services, labels, new ClientPresence(res));
  let reply: Reply;
  try {
    reply = await answerRequest(ex, site.routes);
  } catch (error) {
    const clientGone = ex.clientGone || req.errored !== null || (error as NodeJS.ErrnoException)?.code === 'ECONNRESET';
    reply = problemReply(error, requestId, clientGone, config.logFormat);
    // Refused before negotiation (framing, base path, 404, 405, a form): the problem is rendered in what Accept prefers.
    if (!ex.represented) ex.mediaType = negotiateAnyRoute(req).mediaType;
  }
  try {
    if (cors.method === 'OPTIONS') {
      const preflight = preflightMethods(config.corsOrigins, cors, reply.headers?.['Allow']);
      if (preflight['Access-Control-Allow-Methods']) reply.headers = { ...reply.headers, ...preflight };
    }
    if (res.headersSent || res.destroyed) return;
    // An answer given before the body was read in full (a 413, a refused part, a 401 before a body...)
    // cannot tell where the rest of the body ends: close the connection after it (RFC 9112 §9.6).
    if (!req.complete) baseHeaders['Connection'] = 'close';
    sendReply(req, res, reply, [baseHeaders, ex.ownHeaders, reply.headers], {
      mediaType: ex.mediaType, basePath: config.basePath, negotiated: ex.negotiated, requestId, logFormat: config.logFormat,
    });
  } catch (error) {
    // sendReply never throws; this is the last guard of a promise nobody awaits (index.ts): a bug here is
    // logged and cuts one connection, it never ends the process (docs/operations.md).
    process.stderr.write(formatErrorLine(config.logFormat, Date.now(), requestId, error));
    res.destroy();
  }
}
