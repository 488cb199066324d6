// Scans MIME header values without backtracking regexes: media types, `; name=value` parameters, a part's headers.
import { ParseFailure } from './parse-failure.ts';

/** A part as its headers describe it; `filename` is set only for file parts. */
export interface PartInfo {
  name: string;
  filename: string | undefined;
  contentType: string;
}

// RFC 9110 §5.6.2: tchar, as a lookup table so header values are scanned without regexes.
const TOKEN_CHARS = new Uint8Array(128).map((_, code) => Number(/[!#$%&'*+.^_`|~0-9A-Za-z-]/.test(String.fromCharCode(code))));

const malformed = (detail: string): ParseFailure => new ParseFailure('bad-multipart', detail);

/** Where the token starting at `at` ends (`at` itself when there is none). */
function skipToken(text: string, at: number): number {
  while (at < text.length && TOKEN_CHARS[text.charCodeAt(at)] === 1) at += 1;
  return at;
}

/** RFC 9110 §5.6.3: optional whitespace is spaces and tabs. */
function skipSpace(text: string, at: number): number {
  for (let code = text.charCodeAt(at); code === 0x20 || code === 0x09; code = text.charCodeAt(at)) at += 1;
  return at;
}

/** `type/subtype`, lower-cased, at the start of a Content-Type, and where it ends. */
export function readMediaType(text: string): { type: string; end: number } | undefined {
  const start = skipSpace(text, 0);
  const slash = skipToken(text, start);
  const end = skipToken(text, slash + 1);
  if (slash === start || text[slash] !== '/' || end === slash + 1) return undefined;
  return { type: text.slice(start, end).toLowerCase(), end };
}

/** RFC 9110 §5.6.6: `; name=value` pairs from `at` to the end; names lower-cased, none repeated. */
export function parseParameters(text: string, at: number): Map<string, string> {
  const parameters = new Map<string, string>();
  for (at = skipSpace(text, at); at < text.length; at = skipSpace(text, at)) {
    const nameStart = skipSpace(text, at + 1);
    if (text[at] === ';' && (nameStart === text.length || text[nameStart] === ';')) {
      at = nameStart; // the grammar allows empty parameters: `a;;b=c;`
      continue;
    }
    const nameEnd = skipToken(text, nameStart);
    const equals = skipSpace(text, nameEnd);
    const name = text.slice(nameStart, nameEnd).toLowerCase();
    if (text[at] !== ';' || nameEnd === nameStart || text[equals] !== '=' || parameters.has(name)) {
      throw malformed(`malformed or repeated parameter in "${text}"`);
    }
    const valueStart = skipSpace(text, equals + 1);
    const tokenEnd = skipToken(text, valueStart);
    const value = text[valueStart] === '"' ? readQuoted(text, valueStart + 1) : { text: text.slice(valueStart, tokenEnd), end: tokenEnd };
    if (value.end === valueStart) throw malformed(`a parameter without a value in "${text}"`);
    parameters.set(name, value.text);
    at = value.end;
  }
  return parameters;
}

/**
 * A quoted string's text from just after its opening quote, and where it ends. A backslash
 * escapes only `"` and `\`: browsers never escape (WHATWG percent-encodes quotes), and old
 * clients send raw Windows paths such as `C:\x\a.png`, which must keep their backslashes.
 */
function readQuoted(text: string, at: number): { text: string; end: number } {
  let value = '';
  for (let runStart = at; at < text.length; at += 1) {
    if (text[at] === '"') return { text: value + text.slice(runStart, at), end: at + 1 };
    if (text[at] === '\\' && (text[at + 1] === '"' || text[at + 1] === '\\')) {
      value += text.slice(runStart, at);
      runStart = at + 1;
      at += 1;
    }
  }
  throw malformed(`an unterminated quoted string in "${text}"`);
}

/** Whether the header line whose name ends at `nameEnd` is `name` (lower case). */
const isHeader = (line: string, nameEnd: number, name: string): boolean =>
  nameEnd === name.length && line.slice(0, nameEnd).toLowerCase() === name;

/**
 * The part's name, filename and media type from its header section (RFC 7578 §4.2, §4.4).
 * Other headers are ignored (RFC 7578 §4.7 deprecates Content-Transfer-Encoding).
 */
export function parsePartHeaders(section: string): PartInfo {
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (let at = 0; at < section.length; ) {
    const found = section.indexOf('\r\n', at);
    const lineEnd = found === -1 ? section.length : found;
    const line = section.slice(at, lineEnd);
    const nameEnd = skipToken(line, 0);
    // RFC 9112 §5.2: a line starting with a space or tab (obsolete folding) has no name and is
    // rejected; §2.2: a bare CR or LF is never a line break, and never valid.
    const isBroken = line.includes('\r') || line.includes('\n') || line.includes('\0');
    if (nameEnd === 0 || line[nameEnd] !== ':' || isBroken) throw malformed(`malformed part header "${line}"`);
    const value = line.slice(nameEnd + 1);
    const isDisposition = isHeader(line, nameEnd, 'content-disposition');
    if (isDisposition || isHeader(line, nameEnd, 'content-type')) {
      if ((isDisposition ? disposition : contentType) !== undefined) throw malformed(`repeated part header "${line}"`);
      if (isDisposition) disposition = value;
      else contentType = value;
    }
    at = lineEnd + 2;
  }
  const typeStart = skipSpace(disposition ?? '', 0);
  const typeEnd = skipToken(disposition ?? '', typeStart);
  if (disposition?.slice(typeStart, typeEnd).toLowerCase() !== 'form-data') throw malformed('a part needs Content-Disposition: form-data');
  // RFC 7578 §4.2: `filename*` must not be sent, so it is ignored like any other parameter.
  const parameters = parseParameters(disposition, typeEnd);
  const name = parameters.get('name');
  if (name === undefined) throw malformed('a part needs a name');
  const filename = parameters.get('filename');
  return {
    name,
    filename: filename === undefined ? undefined : stripPath(filename),
    contentType: readMediaType(contentType ?? '')?.type ?? 'text/plain',
  };
}

/** RFC 7578 §4.2: only the last path component of a filename is kept. */
function stripPath(filename: string): string {
  const base = filename.slice(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1);
  return base === '.' || base === '..' ? '' : base;
}
