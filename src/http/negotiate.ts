// Proactive content negotiation: picks the representation an Accept header prefers (RFC 9110 §12.5.1).

/** What this server can render, in its order of preference: JSON is the default, also for `*\/*`. */
export const REPRESENTATION_TYPES = ['application/json', 'application/xml', 'text/html'] as const;

export type RepresentationType = (typeof REPRESENTATION_TYPES)[number];

interface MediaType {
  type: string;
  subtype: string;
  /** Parameter names lower-cased (RFC 9110 §5.6.6), values unquoted. */
  params: Map<string, string>;
}

interface MediaRange extends MediaType {
  q: number;
}

// RFC 9110 §5.6.2: token = 1*tchar.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// RFC 9110 §12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ).
export const QVALUE = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;
// RFC 9110 §5.6.4: quoted-string, with quoted-pair escapes.
const QUOTED_STRING = /^"((?:[^"\\]|\\.)*)"$/s;
// Every representation this server sends is UTF-8, so a range asking for that charset is satisfied.
const SERVED_CHARSET = 'utf-8';

/**
 * The member of `available` (listed in the server's order of preference) that the Accept
 * header rates highest, or null when the header makes every one of them unacceptable.
 *
 * Decisions where RFC 9110 leaves room:
 * - A missing or empty header, or one in which no element parses, is treated as absent
 *   (§12.5.1 lets a server disregard the field): the first available type.
 * - A malformed element (no `type/subtype`, `*` as the type of a concrete subtype, a
 *   parameter that is not `token=value`, or an invalid q such as `q=2`, `q=0.5000`, `q=x`) is
 *   ignored on its own; the other elements still count. Reading a bad q as 1 would promote a
 *   range the client probably meant to demote.
 * - For each available type the most specific matching range decides its weight
 *   (`type/subtype` with more parameters > `type/subtype` > `type/*` > `*\/*`); among equally
 *   specific ranges the highest q wins. q=0 means "not acceptable" (§12.4.2).
 * - Ties in weight go to the server's order in `available`, not to the header's order.
 * - A range parameter must be present with an equal value (case-insensitive) on the available
 *   type; `charset=utf-8` is also accepted for types listed without a charset.
 * - Parameters after `q` are RFC 7231 accept-extensions and are ignored.
 *
 * Never throws: any string is a possible header value.
 */
export function negotiateMediaType(accept: string | undefined, available: readonly string[]): string | null {
  const first = available[0] ?? null;
  if (accept === undefined) return first;
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return first;
  let best: string | null = null;
  let bestQ = 0;
  for (const candidate of available) {
    const media = parseMediaType(candidate);
    if (media === null) continue;
    const q = weigh(media, ranges);
    if (q > bestQ) {
      best = candidate;
      bestQ = q;
    }
  }
  return best;
}

/** The q of the most specific range that matches `media` (0 when none matches). */
function weigh(media: MediaType, ranges: readonly MediaRange[]): number {
  let bestSpecificity: readonly [number, number] = [-1, -1];
  let q = 0;
  for (const range of ranges) {
    if (!matches(range, media)) continue;
    const specificity = specificityOf(range);
    const order = compare(specificity, bestSpecificity);
    if (order > 0 || (order === 0 && range.q > q)) {
      bestSpecificity = specificity;
      q = range.q;
    }
  }
  return q;
}

function matches(range: MediaRange, media: MediaType): boolean {
  if (range.type !== '*' && range.type !== media.type) return false;
  if (range.subtype !== '*' && range.subtype !== media.subtype) return false;
  for (const [name, value] of range.params) {
    const offered = media.params.get(name) ?? (name === 'charset' ? SERVED_CHARSET : undefined);
    if (offered === undefined || offered.toLowerCase() !== value.toLowerCase()) return false;
  }
  return true;
}

/** RFC 9110 §12.5.1: "the most specific reference has precedence". */
function specificityOf(range: MediaRange): readonly [number, number] {
  const level = range.type === '*' ? 0 : range.subtype === '*' ? 1 : 2;
  return [level, range.params.size];
}

function compare(a: readonly [number, number], b: readonly [number, number]): number {
  return a[0] !== b[0] ? a[0] - b[0] : a[1] - b[1];
}

/** RFC 9110 §12.5.1: Accept = #( media-range [ weight ] ). Malformed elements are dropped. */
function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const element of splitOutsideQuotes(header, ',')) {
    if (element.trim() === '') continue; // RFC 9110 §5.6.1: empty list elements are allowed
    const range = parseMediaRange(element);
    if (range !== null) ranges.push(range);
  }
  return ranges;
}

function parseMediaRange(element: string): MediaRange | null {
  const [head = '', ...parameters] = splitOutsideQuotes(element, ';');
  const media = parseTypeAndSubtype(head);
  if (media === null) return null;
  let q = 1;
  for (const parameter of parameters) {
    if (parameter.trim() === '') continue; // RFC 9110 §5.6.6: parameters = *( OWS ";" OWS [ parameter ] )
    const parsed = parseParameter(parameter);
    if (parsed === null) return null;
    if (parsed.name === 'q') {
      if (!QVALUE.test(parsed.value)) return null;
      q = Number(parsed.value);
      break; // the weight ends the media range; anything after it is an accept-ext (RFC 7231 §5.3.2)
    }
    media.params.set(parsed.name, parsed.value);
  }
  if (media.type === '*' && media.subtype !== '*') return null;
  return { ...media, q };
}

/** A concrete media type such as an entry of `available`; wildcards are not media types. */
function parseMediaType(text: string): MediaType | null {
  const range = parseMediaRange(text);
  if (range === null || range.type === '*' || range.subtype === '*') return null;
  return range;
}

function parseTypeAndSubtype(text: string): MediaType | null {
  const slash = text.indexOf('/');
  if (slash < 0) return null;
  // RFC 9110 §8.3.1: type and subtype are case-insensitive.
  const type = text.slice(0, slash).trim().toLowerCase();
  const subtype = text.slice(slash + 1).trim().toLowerCase();
  if (!TOKEN.test(type) || !TOKEN.test(subtype)) return null;
  return { type, subtype, params: new Map() };
}

/** RFC 9110 §5.6.6: parameter = token "=" ( token / quoted-string ), with no whitespace around "=". */
function parseParameter(text: string): { name: string; value: string } | null {
  const trimmed = text.trim();
  const equals = trimmed.indexOf('=');
  if (equals < 0) return null;
  const name = trimmed.slice(0, equals);
  const raw = trimmed.slice(equals + 1);
  if (!TOKEN.test(name)) return null;
  if (TOKEN.test(raw)) return { name: name.toLowerCase(), value: raw };
  const quoted = QUOTED_STRING.exec(raw);
  if (quoted === null) return null;
  return { name: name.toLowerCase(), value: (quoted[1] ?? '').replace(/\\(.)/gs, '$1') };
}

/** Splits at `separator` except inside quoted strings, so `;a="x,y"` stays in one piece. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
