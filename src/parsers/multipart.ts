// Streaming multipart/form-data parser (RFC 7578 over RFC 2046 §5.1): an explicit state machine, memory bounded by named limits.
import { ParseFailure } from './parse-failure.ts';
import { parseParameters, parsePartHeaders, readMediaType, type PartInfo } from './header-parameters.ts';

export type { PartInfo } from './header-parameters.ts';

/**
 * Every limit is inclusive (a value equal to it passes) and passing any of them is a 413:
 * - maxFileBytes: content of one part that has a filename;
 * - maxFieldBytes: content of one part without a filename (a text field);
 * - maxParts: number of parts in the body;
 * - maxHeaderBytes: one part's header section, blank line included; it also caps the
 *   transport padding after a boundary, the preamble and the epilogue, which are
 *   discarded noise, so a body cannot keep the parser busy without ever starting a part.
 */
export interface MultipartLimits {
  maxFileBytes: number;
  maxFieldBytes: number;
  maxParts: number;
  maxHeaderBytes: number;
}

/** `onPartData` receives views into the written chunks, never copies. */
export interface MultipartHandlers {
  onPartStart(part: PartInfo): void;
  onPartData(data: Buffer): void;
  onPartEnd(): void;
}

export interface MultipartFile {
  name: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

type State =
  | 'PREAMBLE' // discarding bytes until the first delimiter
  | 'DELIMITER' // just read CRLF--boundary: next is "--", padding or CRLF
  | 'PADDING' // transport padding (LWSP) before the CRLF that ends the delimiter line
  | 'DELIMITER_LF' // read the CR that ends a delimiter line
  | 'CLOSE' // read the first "-" of the close delimiter
  | 'HEADERS' // a part's header section, up to its blank line
  | 'BODY' // a part's content, up to the next delimiter
  | 'EPILOGUE' // after the close delimiter: discarded
  | 'ENDED';

const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;
const HEADER_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);
// RFC 2046 §5.1.1: 1 to 70 bchars, the last not a space.
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

const malformed = (detail: string): ParseFailure => new ParseFailure('bad-multipart', detail);
const tooLarge = (detail: string): ParseFailure => new ParseFailure('too-large', detail);

/** The boundary of a `multipart/form-data` Content-Type (RFC 7578 §4.1). */
export function parseBoundary(contentType: string): string {
  const media = readMediaType(contentType);
  if (media?.type !== 'multipart/form-data') {
    throw new ParseFailure('unsupported-type', 'expected multipart/form-data');
  }
  const boundary = parseParameters(contentType, media.end).get('boundary');
  if (boundary === undefined || !BOUNDARY.test(boundary)) {
    throw malformed('the Content-Type needs a boundary of 1 to 70 characters (RFC 2046 §5.1.1)');
  }
  return boundary;
}

export class MultipartParser {
  private state: State = 'PREAMBLE';
  private readonly delimiter: Buffer;
  // Bytes at the end of the last chunk that may begin a delimiter; the virtual CRLF lets
  // the first delimiter sit at the very start of the body (RFC 2046 §5.1.1).
  private held: Buffer = Buffer.from('\r\n');
  private readonly header: Buffer;
  private headerLength = 0;
  private parts = 0;
  private partLimit: number;
  private partBytes = 0; // bytes of the current part, the preamble, padding or epilogue
  private failure: unknown;

  private readonly limits: MultipartLimits;
  private readonly handlers: MultipartHandlers;

  constructor(boundary: string, limits: MultipartLimits, handlers: MultipartHandlers) {
    this.limits = limits;
    this.handlers = handlers;
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
    this.header = Buffer.allocUnsafe(limits.maxHeaderBytes + 2);
    this.partLimit = limits.maxHeaderBytes;
  }

  /** Consumes a chunk; throws a ParseFailure as soon as the body is malformed or too large. */
  write(chunk: Buffer): void {
    this.guard(() => {
      let offset = 0;
      while (offset < chunk.length) offset = this.step(chunk, offset);
    });
  }

  /** Declares the end of the body; throws unless the close delimiter was read. */
  end(): void {
    this.guard(() => {
      if (this.state !== 'EPILOGUE') throw malformed('the body ends before its close delimiter');
      this.state = 'ENDED';
    });
  }

  private guard(action: () => void): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.state === 'ENDED') throw new Error('MultipartParser used after end()');
    try {
      action();
    } catch (error) {
      this.failure = error;
      throw error;
    }
  }

  /** Consumes bytes from `offset` in the current state; returns where the next state starts. */
  private step(chunk: Buffer, offset: number): number {
    switch (this.state) {
      case 'PREAMBLE':
      case 'BODY':
        return this.scanContent(chunk, offset);
      case 'HEADERS':
        return this.readHeaders(chunk, offset);
      case 'EPILOGUE':
        this.count(chunk.length - offset, 'the epilogue');
        return chunk.length;
      default:
        this.readDelimiterByte(chunk[offset] ?? 0);
        return offset + 1;
    }
  }

  /** Adds discarded or content bytes to the current count; 413 once over its limit. */
  private count(bytes: number, what: string): void {
    this.partBytes += bytes;
    if (this.partBytes > this.partLimit) throw tooLarge(`${what} is over ${this.partLimit} bytes`);
  }

  /** PREAMBLE and BODY: searches for the delimiter, passing on what is surely content. */
  private scanContent(chunk: Buffer, offset: number): number {
    // Held bytes are rare (the chunk ended in what may begin a delimiter); joining them costs
    // at most one copy of each chunk, so work stays linear in the body.
    const held = this.held;
    const data = held.length === 0 ? chunk : Buffer.concat([held, chunk.subarray(offset)]);
    const start = held.length === 0 ? offset : 0;
    const at = data.indexOf(this.delimiter, start);
    const contentEnd = at === -1 ? data.length - this.partialDelimiterLength(data, start) : at;
    this.emit(data, start, contentEnd);
    this.held = at === -1 && contentEnd < data.length ? Buffer.from(data.subarray(contentEnd)) : EMPTY;
    if (at === -1) return chunk.length;
    if (this.state === 'BODY') this.handlers.onPartEnd();
    this.enter('DELIMITER', this.limits.maxHeaderBytes);
    return at + this.delimiter.length + (held.length === 0 ? 0 : offset - held.length);
  }

  /**
   * The length of the longest tail of `data` that is a proper prefix of the delimiter. The
   * delimiter holds one CR, its first byte (bchars exclude CR), so every candidate starts at a CR.
   */
  private partialDelimiterLength(data: Buffer, start: number): number {
    const from = Math.max(start, data.length - this.delimiter.length + 1);
    for (let at = data.indexOf(CR, from); at !== -1; at = data.indexOf(CR, at + 1)) {
      if (this.delimiter.compare(data, at, data.length, 0, data.length - at) === 0) return data.length - at;
    }
    return 0;
  }

  private emit(data: Buffer, start: number, end: number): void {
    if (end === start) return;
    this.count(end - start, this.state === 'BODY' ? 'a part' : 'the preamble');
    if (this.state === 'BODY') this.handlers.onPartData(data.subarray(start, end));
  }

  /** RFC 2046 §5.1.1: `--boundary` is followed by `--` (close), or LWSP* CRLF then a part. */
  private readDelimiterByte(byte: number): void {
    const isSpace = byte === 0x20 || byte === 0x09;
    if (this.state === 'DELIMITER' && byte === DASH) return this.enter('CLOSE', this.partLimit);
    if (this.state === 'CLOSE' && byte === DASH) return this.enter('EPILOGUE', this.limits.maxHeaderBytes);
    if ((this.state === 'DELIMITER' || this.state === 'PADDING') && isSpace) {
      this.enter('PADDING', this.partLimit);
      return this.count(1, 'transport padding');
    }
    if ((this.state === 'DELIMITER' || this.state === 'PADDING') && byte === CR) return this.enter('DELIMITER_LF', this.partLimit);
    if (this.state === 'DELIMITER_LF' && byte === LF) {
      if (++this.parts > this.limits.maxParts) throw tooLarge(`more than ${this.limits.maxParts} parts`);
      this.header[0] = CR; // so an empty header section is found as CRLF CRLF
      this.header[1] = LF;
      this.headerLength = 2;
      return this.enter('HEADERS', this.limits.maxHeaderBytes);
    }
    throw malformed('a boundary must be followed by "--" or a line break');
  }

  /** HEADERS: copies into a buffer of maxHeaderBytes until the blank line, then starts the part. */
  private readHeaders(chunk: Buffer, offset: number): number {
    const previous = this.headerLength;
    // Copy no further than the chunk's first CRLF CRLF: what follows is content.
    const endInChunk = chunk.indexOf(HEADER_END, offset);
    this.headerLength += chunk.copy(this.header, previous, offset, endInChunk === -1 ? chunk.length : endInChunk + HEADER_END.length);
    const end = this.header.subarray(0, this.headerLength).indexOf(HEADER_END, Math.max(0, previous - 3));
    if (end === -1) {
      if (this.headerLength === this.header.length) throw tooLarge(`a part's headers are over ${this.limits.maxHeaderBytes} bytes`);
      return offset + this.headerLength - previous;
    }
    const part = parsePartHeaders(this.header.toString('utf8', 2, end));
    this.enter('BODY', part.filename === undefined ? this.limits.maxFieldBytes : this.limits.maxFileBytes);
    this.handlers.onPartStart(part);
    return offset + end + HEADER_END.length - previous;
  }

  private enter(state: State, limit: number): void {
    if (state !== this.state) this.partBytes = 0;
    this.state = state;
    this.partLimit = limit;
  }
}

export interface ParseMultipartOptions {
  /**
   * Sees each part's headers before any of its content is read; throwing refuses the body there.
   * `repeated`: an earlier part had the same name (a field or a file).
   */
  checkPart?(part: PartInfo, repeated: boolean): void;
}

/**
 * Reads a whole body into text fields (UTF-8) and files (parts with a filename).
 * A repeated text field name is rejected with 400: picking one would let a client hide a
 * value from whichever layer read the other; repeated file names are kept in order.
 * `options.checkPart` runs first, so a caller that knows its form refuses a part in its own words.
 * On failure the body is left as it is: `for await` would destroy a request stream on the
 * early exit, which can cut the connection under the caller's 400 or 413; whether to drain
 * or close is the caller's choice.
 */
export async function parseMultipart(
  body: AsyncIterable<Buffer>,
  contentType: string,
  limits: MultipartLimits,
  options: ParseMultipartOptions = {},
): Promise<{ fields: Map<string, string>; files: MultipartFile[] }> {
  const fields = new Map<string, string>();
  const files: MultipartFile[] = [];
  const names = new Set<string>();
  let current: PartInfo = { name: '', filename: undefined, contentType: '' };
  let chunks: Buffer[] = [];
  const parser = new MultipartParser(parseBoundary(contentType), limits, {
    onPartStart(part) {
      options.checkPart?.(part, names.has(part.name));
      if (part.filename === undefined && fields.has(part.name)) throw malformed(`repeated field "${part.name}"`);
      names.add(part.name);
      current = part;
      chunks = [];
    },
    onPartData(data) {
      chunks.push(data);
    },
    onPartEnd() {
      const data = Buffer.concat(chunks);
      const { name, filename, contentType } = current;
      if (filename === undefined) fields.set(name, data.toString('utf8'));
      else files.push({ name, filename, contentType, data });
    },
  });
  const reader = body[Symbol.asyncIterator]();
  for (let next = await reader.next(); next.done !== true; next = await reader.next()) parser.write(next.value);
  parser.end();
  return { fields, files };
}
