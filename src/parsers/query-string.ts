// Splits a raw query string into decoded name/value pairs, keeping the order and every repetition.
import { fieldFailure } from './parse-failure.ts';

export interface QueryPair {
  /** The decoded name, as the client wrote it (`createdAt>` for `createdAt>=5`). */
  name: string;
  value: string;
}

/**
 * application/x-www-form-urlencoded parsing (WHATWG URL §5.1): split on `&`, then at the FIRST `=`
 * only, then decode name and value separately with `+` meaning space. Splitting before decoding is
 * what lets `a>=5` (name `a>`) and `a=>5` (value `>5`) stay apart, and lets an encoded `%26` or
 * `%3D` live inside a value. Unlike URLSearchParams, a malformed percent-escape or one that is not
 * UTF-8 is refused (400) instead of being passed through as literal text.
 */
export function splitQueryString(rawQuery: string): QueryPair[] {
  // Tolerate callers that hand over `url.search` with its leading `?`.
  const query = rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery;
  const pairs: QueryPair[] = [];
  for (const segment of query.split('&')) {
    // Empty segments (`a=1&&b=2`, a trailing `&`) carry nothing, as in the WHATWG parser.
    if (segment === '') continue;
    const equals = segment.indexOf('=');
    const rawName = equals === -1 ? segment : segment.slice(0, equals);
    const rawValue = equals === -1 ? '' : segment.slice(equals + 1);
    const name = decodeFormComponent(rawName);
    if (name === undefined) {
      throw fieldFailure(rawName, 'the parameter name is not valid percent-encoded UTF-8', 'bad-query');
    }
    const value = decodeFormComponent(rawValue);
    if (value === undefined) {
      throw fieldFailure(name, 'the value is not valid percent-encoded UTF-8 (write % as %25)', 'bad-query');
    }
    pairs.push({ name, value });
  }
  return pairs;
}

function decodeFormComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}
