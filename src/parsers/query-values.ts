// Typed values of query parameters: numbers, ISO 8601 timestamps as epoch milliseconds, ids, text and LIKE patterns.

/** The type of a collection's field, which decides how its values in a query are read. */
export type FieldType = 'string' | 'number' | 'timestamp' | 'id' | 'id-list';

/** A named result rather than a throw, so the range split can try many candidates cheaply. */
export type ValueResult = { ok: true; value: string | number } | { ok: false; message: string };

export const MAX_TEXT_LENGTH = 1000;
const MAX_NUMBER_LENGTH = 32;
const MAX_TIMESTAMP_LENGTH = 40;
// docs/protocol.md §1.2: every id matches this.
const ID = /^[A-Za-z0-9_-]{1,64}$/;
// Plain decimal notation only: no `+` sign (it would arrive as a space), no exponent, so that a
// hyphen inside a value is always either a minus sign or a range separator.
const NUMBER = /^-?\d+(?:\.\d+)?$/;
// ISO 8601 / RFC 3339 §5.6: a full date, optionally a time (seconds and fraction optional) and a zone.
// The zone sign may be a space because an unencoded `+` in a query string decodes to a space.
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+ -])(\d{2}):?(\d{2}))?)?$/;

const NUMBER_HINT = 'must be a decimal number such as 42 or -1.5';
const TIMESTAMP_HINT = 'must be an ISO 8601 date or date-time such as 2026-01-01 or 2026-01-01T09:30:00.000Z';

/** Checks `text` against a field type; timestamps become milliseconds since the epoch (how SQL stores them). */
export function parseFieldValue(type: FieldType, text: string): ValueResult {
  switch (type) {
    case 'number':
      if (text.length > MAX_NUMBER_LENGTH || !NUMBER.test(text)) return { ok: false, message: NUMBER_HINT };
      return { ok: true, value: Number(text) };
    case 'timestamp': {
      const ms = parseTimestamp(text);
      return ms === undefined ? { ok: false, message: TIMESTAMP_HINT } : { ok: true, value: ms };
    }
    case 'id':
    case 'id-list':
      if (!ID.test(text)) return { ok: false, message: "must be an id: 1 to 64 letters, digits, '_' or '-'" };
      return { ok: true, value: text };
    case 'string':
      return checkText(text);
  }
}

/**
 * A LIKE pattern (docs/protocol.md §6.4: `%` and `_` as in SQL). The SQL uses `ESCAPE '\'`, so `\%`, `\_` and
 * `\\` match those characters literally; any other use of `\` is refused so no pattern is ambiguous.
 */
export function parseLikePattern(text: string): ValueResult {
  const checked = checkText(text);
  if (!checked.ok) return checked;
  for (let at = text.indexOf('\\'); at !== -1; at = text.indexOf('\\', at + 2)) {
    const next = text[at + 1];
    if (next !== '%' && next !== '_' && next !== '\\') {
      return { ok: false, message: 'a backslash in a like pattern must be followed by %, _ or another backslash' };
    }
  }
  return checked;
}

/**
 * docs/protocol.md §6.4 `<field>=<low>-<high>`: the value splits at the one hyphen that leaves two valid values.
 * Answers undefined when no hyphen, or more than one, does; the caller then reads the value as equality.
 */
export function splitRange(type: FieldType, text: string): { low: number; high: number } | undefined {
  if (type !== 'number' && type !== 'timestamp') return undefined;
  // Both halves are length-capped, so a long value cannot make this loop quadratic.
  if (text.length > 2 * MAX_TIMESTAMP_LENGTH + 1) return undefined;
  let found: { low: number; high: number } | undefined;
  let count = 0;
  for (let at = text.indexOf('-'); at !== -1; at = text.indexOf('-', at + 1)) {
    const low = parseFieldValue(type, text.slice(0, at));
    const high = parseFieldValue(type, text.slice(at + 1));
    if (low.ok && high.ok) {
      count += 1;
      found = { low: low.value as number, high: high.value as number };
    }
  }
  return count === 1 ? found : undefined;
}

function checkText(text: string): ValueResult {
  if (text.length > MAX_TEXT_LENGTH) return { ok: false, message: `must be at most ${MAX_TEXT_LENGTH} characters` };
  // SQLite's text functions (LIKE among them) stop at NUL, so such a value could never match as written.
  if (text.includes('\0')) return { ok: false, message: 'must not contain NUL characters' };
  return { ok: true, value: text };
}

function parseTimestamp(text: string): number | undefined {
  if (text.length > MAX_TIMESTAMP_LENGTH) return undefined;
  const match = TIMESTAMP.exec(text);
  if (match === null) return undefined;
  const [, year = '', month = '', day = '', hour = '0', minute = '0', second = '0', fraction = ''] = match;
  const [, , , , , , , , , sign, zoneHour = '0', zoneMinute = '0'] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number) as [
    number, number, number, number, number, number,
  ];
  // A fraction finer than milliseconds is truncated: storage keeps whole milliseconds.
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59 || Number(zoneHour) > 23 || Number(zoneMinute) > 59) {
    return undefined;
  }
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, ms);
  // 2026-02-30 rolls over to March: refuse it rather than guess.
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined;
  // No zone means UTC (for dates ISO 8601 says local time, which a server has no business guessing).
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(zoneHour) * 60 + Number(zoneMinute));
  return date.getTime() - offsetMinutes * 60_000;
}
