// Renders a representation in the negotiated media type: the body bytes and their Content-Type.
import { renderHtml } from './html.ts';
import type { Representation } from './representation.ts';
import { renderXml } from './xml.ts';

export interface RenderedBody {
  contentType: string;
  /** JSON stays text: the socket write encodes it (one copy fewer than a Buffer made here). */
  body: Buffer | string;
  /** The suffix that makes this representation's ETag differ from the others' (RFC 9110 §8.8.3). */
  variant: string;
  /** The JSON text of the body, when the body is JSON: the ETag is hashed from it instead of a second JSON.stringify. */
  json?: string;
}

/** JSON shapes of docs/protocol.md §1.4: envelope for chats, messages and actions; plain objects otherwise. */
export function toJson(rep: Representation): unknown {
  switch (rep.kind) {
    case 'collection': return { data: rep.data, meta: rep.meta };
    case 'single': return rep.enveloped ? { data: rep.data } : rep.data;
    case 'problem': return rep.data;
  }
}

export function renderRepresentation(
  rep: Representation,
  mediaType: string,
  options: { basePath: string; status: number },
): RenderedBody {
  const problem = rep.kind === 'problem';
  switch (mediaType) {
    case 'application/xml':
      return { contentType: problem ? 'application/problem+xml; charset=utf-8' : 'application/xml; charset=utf-8', body: Buffer.from(renderXml(rep)), variant: 'xml' };
    case 'text/html': {
      const itemHref = rep.kind === 'collection' ? rep.itemHref : undefined;
      const html = renderHtml(rep, { ...options, itemHref });
      return { contentType: 'text/html; charset=utf-8', body: Buffer.from(html), variant: 'html' };
    }
    default: {
      const json = JSON.stringify(toJson(rep));
      return { contentType: problem ? 'application/problem+json' : 'application/json', body: json, variant: '', json };
    }
  }
}
