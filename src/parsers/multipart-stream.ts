// Reads a multipart/form-data body part by part with the MultipartParser, handing each file's content on as it arrives.
import { MultipartParser, parseBoundary, type MultipartLimits, type PartInfo } from './multipart.ts';
import { ParseFailure } from './parse-failure.ts';

/** Where one file part's content goes: written in order as the body arrives, then ended; each write awaited before the next. */
export interface FileSink {
  write(data: Buffer): Promise<void>;
  end(): Promise<void>;
}

export interface StreamMultipartOptions {
  /** Sees each part's headers before any of its content is read; throwing refuses the body there (as parseMultipart's). */
  checkPart?(part: PartInfo, repeated: boolean): void;
  /** Opens the sink of a file part (one with a filename), once its headers are read. */
  openFile(part: PartInfo): Promise<FileSink>;
  /** Told each text field as soon as it is whole, so a body refused later still shows what it held. */
  onField?(name: string, value: string): void;
}

/**
 * Reads the whole body; answers the text fields (UTF-8), while each file part's content goes to its sink. Memory
 * stays bounded by one chunk of the body plus the text fields (maxFieldBytes each): the next chunk is read only
 * after the sinks have taken the last one, so a slow sink slows the client down (TCP back-pressure) rather than
 * piling the body up. A repeated text field is a 400, as in parseMultipart. On failure, the sinks opened so far
 * are the caller's to clean up; the body is left as it is.
 */
export async function streamMultipart(
  body: AsyncIterable<Buffer>,
  contentType: string,
  limits: MultipartLimits,
  options: StreamMultipartOptions,
): Promise<Map<string, string>> {
  const fields = new Map<string, string>();
  const names = new Set<string>();
  // What the parser found in one chunk, done in order once the chunk is parsed (the parser itself is synchronous).
  const pending: (() => Promise<void>)[] = [];
  let field: { name: string; chunks: Buffer[] } | undefined;
  let file: { sink?: FileSink } | undefined;
  const parser = new MultipartParser(parseBoundary(contentType), limits, {
    onPartStart(part) {
      options.checkPart?.(part, names.has(part.name));
      if (part.filename === undefined && fields.has(part.name)) throw new ParseFailure('bad-multipart', `repeated field "${part.name}"`);
      names.add(part.name);
      if (part.filename === undefined) {
        field = { name: part.name, chunks: [] };
        file = undefined;
        return;
      }
      field = undefined;
      const opened: { sink?: FileSink } = {};
      file = opened;
      pending.push(async () => {
        opened.sink = await options.openFile(part);
      });
    },
    onPartData(data) {
      // A view into the chunk being parsed: it lives as long as the chunk, which outlives the pending work.
      if (field !== undefined) field.chunks.push(data);
      const current = file;
      if (current !== undefined) pending.push(() => current.sink!.write(data));
    },
    onPartEnd() {
      if (field !== undefined) {
        const value = Buffer.concat(field.chunks).toString('utf8');
        fields.set(field.name, value);
        options.onField?.(field.name, value);
      }
      const current = file;
      if (current !== undefined) pending.push(() => current.sink!.end());
      field = undefined;
      file = undefined;
    },
  });
  const reader = body[Symbol.asyncIterator]();
  for (let next = await reader.next(); next.done !== true; next = await reader.next()) {
    parser.write(next.value);
    for (const work of pending.splice(0)) await work();
  }
  parser.end();
  return fields;
}
