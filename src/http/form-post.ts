// HTML forms (docs/html.md, forms): a same-origin form post becomes the request it stands for, with the body its handler reads.
import type { IncomingMessage } from 'node:http';
import { HttpError, invalidField } from './http-error.ts';
import { mediaTypeOf, readBody } from './read-body.ts';

export const FORM_TYPE = 'application/x-www-form-urlencoded';
export const MULTIPART_TYPE = 'multipart/form-data';
/** The methods a form cannot send (HTML §4.10.18.6 knows only GET, POST and dialog), named by `_method`. */
const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);
/** Form fields that steer the mechanism and never reach a handler. */
const METHOD_FIELD = '_method';
const BACK_FIELD = '_back';

/** A form post that passed the origin check: the method it stands for and its fields as typed. */
export interface FormSubmission {
  kind: 'urlencoded' | 'multipart';
  /** POST, or what `_method` named. */
  method: string;
  /** Every field but `_method` and `_back`, each with all its values in order (a multipart body is left to its handler: empty). */
  fields: Map<string, string[]>;
  /** `_back`: the page the form was on, a path of this server; undefined when absent or not such a path. */
  back: string | undefined;
  /**
   * The JSON body the fields stand for (formBody), once the route's form rule is known: what its handler reads in
   * place of the request's own body (http/json-body.ts). Undefined for multipart, which its handler reads itself.
   */
  body: Record<string, unknown> | undefined;
}

/** How a route's resource fields travel in JSON: in the {"data"} envelope or bare, which ones are lists or may be null. */
export interface FormShape {
  envelope: boolean;
  /** Fields sent as a JSON array (a checkbox per value); one value still makes a list. */
  lists?: readonly string[];
  /** Fields whose empty value means JSON null (every other empty field counts as absent). */
  nullable?: readonly string[];
  /** The route takes multipart/form-data (a file upload), read by its handler. */
  files?: boolean;
  /** Fields sent as JSON true or false: the values "true" and "false" (any other text goes on as text, for the handler to refuse). */
  booleans?: readonly string[];
}

/**
 * A POST is read as an HTML form only when a browser of this very site sent it: the form media type, the
 * server's own Origin, and no Authorization header (a client with a token sends JSON). Anything else goes
 * on as the request it is, and its handler refuses a form body with 415, or authenticate() with 403.
 */
export function isFormPost(req: IncomingMessage, ownOrigin: string): boolean {
  if (req.method !== 'POST' || req.headers.authorization !== undefined || req.headers.origin !== ownOrigin) return false;
  const type = mediaTypeOf(req.headers['content-type']);
  return type === FORM_TYPE || type === MULTIPART_TYPE;
}

/**
 * The longest `_back` kept, once percent-encoded: a page's own path and query are far shorter, and a `Location`
 * much longer than this is refused by common proxies and clients (a browser would be sent nowhere).
 */
export const MAX_BACK_LENGTH = 2048;

/**
 * RFC 3986 §2: what a URI reference holds as it is (unreserved and reserved characters, and the '%' of a %XX
 * escape); anything else, a '%' that starts no escape included, is matched here to be percent-encoded.
 */
const NOT_URI_CHARACTERS = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+/gu;

function percentEncodeUtf8(run: string): string {
  // A lone surrogate (from a JSON string, never from a form's UTF-8) becomes U+FFFD's bytes, as TextEncoder would.
  let encoded = '';
  for (const byte of Buffer.from(run, 'utf8')) encoded += `%${byte < 16 ? '0' : ''}${byte.toString(16).toUpperCase()}`;
  return encoded;
}

/**
 * `value` as an ASCII URI reference (RFC 3986 §2.1): every character a URI cannot hold percent-encoded as its
 * UTF-8 bytes, so `/\u3000` becomes `/%E3%80%80`. The result is always a valid header field value (RFC 9110 §5.5).
 */
export function percentEncodeUri(value: string): string {
  return value.replace(NOT_URI_CHARACTERS, percentEncodeUtf8);
}

/**
 * A same-origin path of this server (under basePath), percent-encoded to ASCII (docs/html.md, forms rule 4):
 * never '//' or '/\' (another host to a browser), no whitespace or control character of ASCII, and at most
 * MAX_BACK_LENGTH once encoded, so `_back` can never send the browser elsewhere nor break the `Location` it becomes.
 */
export function samePath(value: string | undefined, basePath: string): string | undefined {
  if (value === undefined || !value.startsWith(`${basePath}/`) || !/^\/(?![/\\])/.test(value) || /[\u0000-\u0020\u007f\\]/.test(value)) return undefined;
  const encoded = percentEncodeUri(value);
  return encoded.length <= MAX_BACK_LENGTH ? encoded : undefined;
}

/** Reads a urlencoded form (a multipart one stays unread for its handler) and takes out `_method` and `_back`. */
/**
 * A browser sends every line break of a form's fields as CR LF (HTML §4.10.21.8, constructing the entry list); the
 * text a person typed had line feeds, which is all message text may hold (docs/protocol.md §4.4). docs/html.md.
 */
export function normaliseLineBreaks(value: string): string {
  return value.replace(/\r\n?/g, '\n');
}

export async function readFormPost(req: IncomingMessage, limit: number, basePath: string): Promise<FormSubmission> {
  if (mediaTypeOf(req.headers['content-type']) === MULTIPART_TYPE) return { kind: 'multipart', method: 'POST', fields: new Map(), back: undefined, body: undefined };
  // WHATWG URL §5.1: application/x-www-form-urlencoded is UTF-8 with + for space.
  const params = new URLSearchParams((await readBody(req, limit)).toString('utf8'));
  const fields = new Map<string, string[]>();
  for (const [name, value] of params) fields.set(name, [...(fields.get(name) ?? []), normaliseLineBreaks(value)]);
  const override = fields.get(METHOD_FIELD);
  fields.delete(METHOD_FIELD);
  const back = fields.get(BACK_FIELD);
  fields.delete(BACK_FIELD);
  let method = 'POST';
  if (override !== undefined) {
    const named = override.length === 1 ? override[0]!.toUpperCase() : '';
    if (!OVERRIDABLE.has(named)) throw invalidField(METHOD_FIELD, 'must be given once, as PUT, PATCH or DELETE');
    method = named;
  }
  return { kind: 'urlencoded', method, fields, back: samePath(back?.[0], basePath), body: undefined };
}

/**
 * The JSON body the route's handler would have read, built from the form's fields: the same validation
 * then runs on it, so a form can do exactly what the JSON body can and nothing more. Empty fields count as
 * absent (or null where the shape says so); a field given twice that is not a list is a 400 naming it; a field
 * whose name starts with '_' is the page's own (a confirmation box) and is left out.
 */
export function formBody(submission: FormSubmission, shape: FormShape): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, values] of submission.fields) {
    // No resource field starts with '_': such fields belong to the page (a confirmation box), never to the body.
    if (name.startsWith('_')) continue;
    if (shape.lists?.includes(name)) {
      body[name] = values.filter((value) => value !== '');
    } else if (values.length > 1) {
      throw invalidField(shape.envelope ? `data.${name}` : name, 'must be given once');
    } else if (values[0] !== '') {
      body[name] = shape.booleans?.includes(name) && (values[0] === 'true' || values[0] === 'false') ? values[0] === 'true' : values[0];
    } else if (shape.nullable?.includes(name)) {
      body[name] = null;
    }
  }
  return shape.envelope ? { data: body } : body;
}

/** A form post to a resource that takes no form: the same 415 a JSON-only route gives, saying which media type to send. */
export function formNotAccepted(method: string, path: string): HttpError {
  return new HttpError('ERR_UNSUPPORTED_MEDIA_TYPE', `${method} ${path} takes no HTML form: send the body as application/json`, {
    headers: { 'Accept-Post': 'application/json' },
  });
}
