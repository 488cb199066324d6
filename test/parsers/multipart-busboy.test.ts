// Differential property test: our multipart parser and busboy agree on random bodies split into random chunks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import busboy from 'busboy';
import { MultipartParser, parseBoundary } from '../../src/parsers/multipart.ts';

interface Entry {
  name: string;
  filename?: string;
  contentType: string;
  data: Buffer;
}

const SAFE = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.'];
// RFC 2046 §5.1.1 bchars; the boundary is always quoted so space, ':' and '?' are allowed.
const BCHARS = [...SAFE, ..."'()+,/:=? "];
const LIMITS = { maxFileBytes: 1 << 20, maxFieldBytes: 1 << 20, maxParts: 100, maxHeaderBytes: 4096 };

const safeName = fc.string({ unit: fc.constantFrom(...SAFE), minLength: 1, maxLength: 16 });
const boundary = fc
  .string({ unit: fc.constantFrom(...BCHARS), minLength: 1, maxLength: 70 })
  .filter((value) => !value.endsWith(' '));
// Transport padding after a boundary (RFC 2046 §5.1.1) is left out: busboy 1.6 rejects it,
// so multipart.test.ts covers it instead.
// Content pieces: random bytes, the bytes delimiters are made of, or a fragment of the delimiter.
const piece = fc.oneof(
  fc.uint8Array({ maxLength: 40 }).map((bytes) => ({ bytes: Buffer.from(bytes) })),
  fc.constantFrom('\r', '\n', '-', '\r\n', '--', '\r\n-', '\r\n--').map((text) => ({ bytes: Buffer.from(text) })),
  fc.record({ boundaryPrefix: fc.nat(), withCrlf: fc.boolean() }),
);
const part = fc.record({
  name: safeName,
  file: fc.option(fc.record({ filename: safeName.filter((name) => name !== '.' && name !== '..'), contentType: fc.option(fc.constantFrom('image/png', 'application/octet-stream', 'text/plain', 'image/webp')) })),
  pieces: fc.array(piece, { maxLength: 8 }),
});
const form = fc.record({
  boundary,
  parts: fc.array(part, { maxLength: 8 }),
  preamble: fc.option(safeName),
  cuts: fc.array(fc.nat(), { maxLength: 12 }),
});

type Form = typeof form extends fc.Arbitrary<infer T> ? T : never;

function buildContent(pieces: Form['parts'][number]['pieces'], boundaryText: string): Buffer {
  return Buffer.concat(pieces.map((item) => {
    if ('bytes' in item) return item.bytes;
    // After CRLF only a proper prefix, else the body is not a form; without CRLF the whole boundary.
    const fragment = boundaryText.slice(0, item.boundaryPrefix % (boundaryText.length + (item.withCrlf ? 0 : 1)));
    return Buffer.from(`${item.withCrlf ? '\r\n' : ''}--${fragment}`, 'latin1');
  }));
}

function buildBody({ boundary: b, parts, preamble }: Form): { body: Buffer; expected: Entry[] } {
  const chunks: Buffer[] = [Buffer.from(preamble === null ? '' : `${preamble}\r\n`)];
  const expected: Entry[] = [];
  for (const { name, file, pieces } of parts) {
    const data = buildContent(pieces, b);
    const disposition = `Content-Disposition: form-data; name="${name}"${file === null ? '' : `; filename="${file.filename}"`}`;
    const type = file?.contentType ?? null;
    chunks.push(Buffer.from(`--${b}\r\n${disposition}\r\n${type === null ? '' : `Content-Type: ${type}\r\n`}\r\n`, 'latin1'), data, Buffer.from('\r\n'));
    expected.push({ name, ...(file === null ? {} : { filename: file.filename }), contentType: type ?? 'text/plain', data });
  }
  chunks.push(Buffer.from(`--${b}--\r\n`, 'latin1'));
  return { body: Buffer.concat(chunks), expected };
}

function split(body: Buffer, cuts: number[]): Buffer[] {
  const offsets = [0, ...cuts.map((cut) => cut % (body.length + 1)).sort((a, b) => a - b), body.length];
  return offsets.slice(1).map((end, index) => body.subarray(offsets[index], end));
}

function parseWithOurs(chunks: Buffer[], contentType: string): Entry[] {
  const entries: Entry[] = [];
  let data: Buffer[] = [];
  const parser = new MultipartParser(parseBoundary(contentType), LIMITS, {
    onPartStart: ({ name, filename, contentType: type }) => {
      data = [];
      entries.push({ name, ...(filename === undefined ? {} : { filename }), contentType: type, data: Buffer.alloc(0) });
    },
    onPartData: (chunk) => data.push(Buffer.from(chunk)),
    onPartEnd: () => {
      const entry = entries.at(-1);
      if (entry !== undefined) entry.data = Buffer.concat(data);
    },
  });
  for (const chunk of chunks) parser.write(chunk);
  parser.end();
  return entries;
}

function parseWithBusboy(chunks: Buffer[], contentType: string): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    const parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', limits: { fieldSize: Infinity } });
    parser.on('field', (name, value, info) => entries.push({ name, contentType: info.mimeType, data: Buffer.from(value) }));
    parser.on('file', (name, stream, info) => {
      const entry: Entry = { name, filename: info.filename, contentType: info.mimeType, data: Buffer.alloc(0) };
      entries.push(entry);
      const data: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => data.push(chunk));
      stream.on('end', () => { entry.data = Buffer.concat(data); });
    });
    parser.on('close', () => resolve(entries));
    parser.on('error', reject);
    for (const chunk of chunks) parser.write(chunk);
    parser.end();
  });
}

/** Fields are compared as busboy sees them: UTF-8 text, so both sides decode the same way. */
const asText = (entries: Entry[]): Entry[] =>
  entries.map((entry) => (entry.filename === undefined ? { ...entry, data: Buffer.from(entry.data.toString('utf8')) } : entry));

test('our parser and busboy agree on random forms split into random chunks', async () => {
  await fc.assert(
    fc.asyncProperty(form, async (generated) => {
      const { body, expected } = buildBody(generated);
      // RFC 2046 §5.1.1: the delimiter must not occur inside a part, counting the CRLF that
      // ends its headers; such bodies are not forms and the two parsers may differ on them.
      const delimiter = `\r\n--${generated.boundary}`;
      fc.pre(expected.every(({ data }) => !Buffer.concat([Buffer.from('\r\n'), data]).includes(delimiter)));
      const contentType = `multipart/form-data; boundary="${generated.boundary}"`;
      const chunks = split(body, generated.cuts);
      const ours = parseWithOurs(chunks, contentType);
      assert.deepEqual(ours, expected);
      assert.deepEqual(asText(ours), await parseWithBusboy(chunks, contentType));
    }),
    { numRuns: 1000 },
  );
});
