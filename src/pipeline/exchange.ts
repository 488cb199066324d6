// One request as the pipeline fills it in (pipeline/answer-request.ts) and as its handler reads it (RequestContext).
import type { IncomingMessage } from 'node:http';
import type { FormSubmission } from '../http/form-post.ts';
import type { ClientPresence } from '../http/client-presence.ts';
import { clientAddress } from '../http/client-address.ts';
import type { ExchangeLabels } from '../http/observe-exchange.ts';
import type { AppServices, Caller, RequestContext, RequestKept, Route } from '../resources/context.ts';
import type { FormRule } from '../resources/form-rules.ts';
import { keptReadsFor } from '../resources/kept-reply.ts';
import { buildPath } from '../router/compile-pattern.ts';

/** Before routing, no route: nothing of the reply is kept. */
const NO_ROUTE: Pick<Route, 'keep'> = Object.freeze({});
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** What a request shares with the page it shows again after a broken form rule (Exchange.forPage). */
interface Shared {
  client: ClientPresence;
  /** Headers for whatever this request answers (the RateLimit fields), made when first needed. */
  responseHeaders: Record<string, string> | undefined;
  address: string | undefined;
}

/**
 * A class, so a request makes one object with no closures, and what most requests never ask for (the
 * AbortSignal, the client's address, the response headers of its own) is worked out only when asked.
 * Each field is set by the stage named beside it, in the order of pipeline/answer-request.ts.
 */
export class Exchange implements RequestContext {
  /** The request's method; a form post's `_method` replaces POST (form decoding). */
  method: string;
  /** The path after the base path, and the query without '?' (base path and routing). */
  path = '/';
  rawQuery = '';
  params = NO_PARAMS;
  /** The route found (routing): what its reply may keep (Route.keep). */
  route: Route | undefined = undefined;
  /** The media type the answer is rendered in (negotiation), and whether it was chosen from Accept (Vary). */
  mediaType = 'application/json';
  negotiated = false;
  /** Whether the negotiation stage ran: before it, an error answer negotiates for itself. */
  represented = false;
  caller: Caller | undefined = undefined;
  form: FormSubmission | undefined = undefined;
  formRule: FormRule | undefined = undefined;
  private keptReads: RequestKept | undefined;

  readonly req: IncomingMessage;
  readonly requestId: string;
  readonly services: AppServices;
  readonly labels: ExchangeLabels;
  private readonly shared: Shared;

  constructor(req: IncomingMessage, requestId: string, services: AppServices, labels: ExchangeLabels, shared: Shared) {
    this.req = req;
    this.requestId = requestId;
    this.services = services;
    this.labels = labels;
    this.shared = shared;
    this.method = req.method ?? 'GET';
  }

  static start(req: IncomingMessage, requestId: string, services: AppServices, labels: ExchangeLabels, client: ClientPresence): Exchange {
    return new Exchange(req, requestId, services, labels, { client, responseHeaders: undefined, address: undefined });
  }

  /** The GET of another page for the same request (a form's page shown again): its caller, headers and kept reads. */
  forPage(path: string, rawQuery: string, params: Record<string, string>): Exchange {
    const page = new Exchange(this.req, this.requestId, this.services, this.labels, this.shared);
    page.method = 'GET';
    page.path = path;
    page.rawQuery = rawQuery;
    page.params = params;
    page.mediaType = this.mediaType;
    page.negotiated = this.negotiated;
    page.represented = true;
    page.caller = this.caller;
    page.keptReads = this.kept;
    return page;
  }

  /**
   * GET and HEAD find what nothing has changed since it was read, and keep their reply if the route says so
   * (resources/kept-reply.ts, storage/read-through.ts); writes read it all. Made when first asked for.
   */
  get kept(): RequestKept {
    return this.keptReads ??= keptReadsFor(this.services.storage, this.method, this.route ?? NO_ROUTE);
  }

  get signal(): AbortSignal {
    return this.shared.client.signal;
  }

  get clientGone(): boolean {
    return this.shared.client.gone();
  }

  /** Made when first asked for: most answers add no header of the request's own. */
  get responseHeaders(): Record<string, string> {
    return this.shared.responseHeaders ??= {};
  }

  /** The headers of the request's own, or undefined when none was made (for http/send.ts). */
  get ownHeaders(): Record<string, string> | undefined {
    return this.shared.responseHeaders;
  }

  get clientAddress(): string {
    return this.shared.address ??= clientAddress(this.req, this.services.config.trustProxy);
  }

  href(pattern: string, params: Record<string, string> = NO_PARAMS, query = ''): string {
    return `${this.services.config.basePath}${buildPath(pattern, params)}${query ? `?${query}` : ''}`;
  }
}
