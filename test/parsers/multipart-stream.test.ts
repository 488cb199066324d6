// streamMultipart (the attachments' reader) against busboy on random forms split into random chunks, with sinks that
// take their time as the database does; and its rules: one pending chunk at a time, refusals, repeated fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import busboy from 'busboy';
import { streamMultipart, type FileSink } from '../../src/parsers/multipart-stream.ts';
import { ParseFailure } from '../../src/parsers/parse-failure.ts';

const SAFE = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.'];
const LIMITS = { maxFileBytes: 1 << 20, maxFieldBytes: 1 << 20, maxParts: 100, maxHeaderBytes: 4096 };
const BOUNDARY = 'stream-boundary';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

interface Entry {
  name: string;
  filename?: string;
  data: Buffer;
}

const safeName = fc.string({ unit: fc.constantFrom(...SAFE), minLength: 1, maxLength: 12 });
const content = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  fc.constantFrom('\r\n', '\r\n-', '\r\n--', `\r\n--${BOUNDARY.slice(0, 5)}`, '--').map((text) => Buffer.from(text)),
);
const part = fc.record({ name: safeName, filename: fc.option(safeName.filter((name) => name !== '.' && name !== '..')), pieces: fc.array(content, { maxLength: 6 }) });
const form = fc.record({ parts: fc.array(part, { maxLength: 6 }), cuts: fc.array(fc.nat(), { maxLength: 12 }) });

function buildBody(parts: { name: string; filename: string | null; pieces: Buffer[] }[]): { body: Buffer; expected: Entry[] } {
  const chunks: Buffer[] = [];
  const expected: Entry[] = [];
  for (const { name, filename, pieces } of parts) {
    const data = Buffer.concat(pieces);
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename === null ? '' : `; filename="${filename}"`}\r\n\r\n`), data, Buffer.from('\r\n'));
    expected.push({ name, ...(filename === null ? {} : { filename }), data });
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { body: Buffer.concat(chunks), expected };
}

function split(body: Buffer, cuts: number[]): Buffer[] {
  const offsets = [0, ...cuts.map((cut) => cut % (body.length + 1)).sort((a, b) => a - b), body.length];
  return offsets.slice(1).map((end, index) => body.subarray(offsets[index], end));
}

async function* chunksOf(chunks: Buffer[]): AsyncGenerator<Buffer> {
  for (const chunk of chunks) yield chunk;
}

/** Streams the body; file sinks wait a turn of the loop on every write, as a database write does. Answers every part in body order. */
async function parseStreaming(chunks: Buffer[]): Promise<Entry[]> {
  const files: Entry[] = [];
  const fields = await streamMultipart(chunksOf(chunks), CONTENT_TYPE, LIMITS, {
    openFile: async (info) => {
      const entry: Entry = { name: info.name, filename: info.filename!, data: Buffer.alloc(0) };
      files.push(entry);
      const taken: Buffer[] = [];
      const sink: FileSink = {
        write: async (data) => {
          await new Promise((resolve) => setImmediate(resolve));
          taken.push(Buffer.from(data));
        },
        end: async () => { entry.data = Buffer.concat(taken); },
      };
      return sink;
    },
  });
  return [...files, ...[...fields].map(([name, value]) => ({ name, data: Buffer.from(value) }))];
}

function parseWithBusboy(chunks: Buffer[]): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const files: Entry[] = [];
    const fields: Entry[] = [];
    const parser = busboy({ headers: { 'content-type': CONTENT_TYPE }, defParamCharset: 'utf8', limits: { fieldSize: Infinity } });
    parser.on('field', (name, value) => fields.push({ name, data: Buffer.from(value) }));
    parser.on('file', (name, stream, info) => {
      const entry: Entry = { name, filename: info.filename, data: Buffer.alloc(0) };
      files.push(entry);
      const data: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => data.push(chunk));
      stream.on('end', () => { entry.data = Buffer.concat(data); });
    });
    parser.on('close', () => resolve([...files, ...fields]));
    parser.on('error', reject);
    for (const chunk of chunks) parser.write(chunk);
    parser.end();
  });
}

test('streamMultipart and busboy agree on random forms split into random chunks, with slow sinks', async () => {
  await fc.assert(
    fc.asyncProperty(form, async (generated) => {
      const { body, expected } = buildBody(generated.parts);
      const delimiter = `\r\n--${BOUNDARY}`;
      fc.pre(expected.every(({ data }) => !Buffer.concat([Buffer.from('\r\n'), data]).includes(delimiter)));
      // A repeated text field is refused by ours (parseMultipart's rule), kept twice by busboy: not compared here.
      const fieldNames = expected.filter((entry) => entry.filename === undefined).map((entry) => entry.name);
      fc.pre(new Set(fieldNames).size === fieldNames.length);
      const chunks = split(body, generated.cuts);
      const ours = await parseStreaming(chunks);
      const asText = (entries: Entry[]): Entry[] => entries.map((entry) => (entry.filename === undefined ? { ...entry, data: Buffer.from(entry.data.toString('utf8')) } : entry));
      assert.deepEqual(ours, asText([...expected.filter((entry) => entry.filename !== undefined), ...expected.filter((entry) => entry.filename === undefined)]));
      assert.deepEqual(ours, await parseWithBusboy(chunks));
    }),
    { numRuns: 500 },
  );
});

test('a sink never has more than one chunk of the body waiting: the next chunk is read after it took the last', async () => {
  const { body } = buildBody([{ name: 'file', filename: 'a.bin', pieces: [Buffer.alloc(10_000, 1)] }]);
  const chunks = split(body, [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000]);
  let read = 0;
  let written = 0;
  async function* counted(): AsyncGenerator<Buffer> {
    for (const chunk of chunks) {
      read += 1;
      // Every chunk before this one has reached the sink (the last one's tail may wait for the next: a delimiter may start there).
      assert.ok(written >= read - 2, `chunk ${read} read while the sink had taken ${written}`);
      yield chunk;
    }
  }
  await streamMultipart(counted(), CONTENT_TYPE, LIMITS, {
    openFile: async () => ({ write: async () => { await new Promise((resolve) => setTimeout(resolve, 1)); written += 1; }, end: async () => {} }),
  });
  assert.equal(read, chunks.length);
});

test('checkPart refuses a part before its content reaches a sink; a repeated text field is a 400', async () => {
  const { body } = buildBody([{ name: 'file', filename: 'a.bin', pieces: [Buffer.from('x')] }, { name: 'nope', filename: 'b.bin', pieces: [Buffer.from('y')] }]);
  const opened: string[] = [];
  await assert.rejects(streamMultipart(chunksOf([body]), CONTENT_TYPE, LIMITS, {
    checkPart: (info) => { if (info.name !== 'file') throw new ParseFailure('invalid', `${info.name}: not a known field`); },
    openFile: async (info) => { opened.push(info.filename!); return { write: async () => {}, end: async () => {} }; },
  }), /nope: not a known field/);
  assert.deepEqual(opened, []);
  const twice = buildBody([{ name: 'text', filename: null, pieces: [Buffer.from('a')] }, { name: 'text', filename: null, pieces: [Buffer.from('b')] }]);
  await assert.rejects(streamMultipart(chunksOf([twice.body]), CONTENT_TYPE, LIMITS, { openFile: async () => ({ write: async () => {}, end: async () => {} }) }),
    (error: unknown) => error instanceof ParseFailure && error.kind === 'bad-multipart' && error.detail === 'repeated field "text"');
});
