// Multipart parser: wire-exact fixtures fed whole, split at every byte and in 1-byte chunks, plus attack shapes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MultipartParser, parseBoundary, parseMultipart, type MultipartLimits } from '../../src/parsers/multipart.ts';

const CONTENT_TYPE = 'multipart/form-data; boundary=xYzZY';
const LIMITS: MultipartLimits = { maxFileBytes: 64, maxFieldBytes: 32, maxParts: 4, maxHeaderBytes: 256 };
const FIELD_A = 'Content-Disposition: form-data; name="a"';

interface Part {
  name: string;
  filename?: string;
  contentType: string;
  content?: string;
}

const wire = (lines: string[]): Buffer => Buffer.from(lines.join('\r\n'));

function parseChunks(chunks: Buffer[], contentType = CONTENT_TYPE, limits = LIMITS): Part[] {
  const parts: Part[] = [];
  let data: Buffer[] = [];
  const parser = new MultipartParser(parseBoundary(contentType), limits, {
    onPartStart({ name, filename, contentType }) {
      data = [];
      parts.push(filename === undefined ? { name, contentType } : { name, filename, contentType });
    },
    onPartData(chunk) {
      data.push(Buffer.from(chunk));
    },
    onPartEnd() {
      const part = parts.at(-1);
      if (part !== undefined) part.content = Buffer.concat(data).toString();
    },
  });
  for (const chunk of chunks) parser.write(chunk);
  parser.end();
  return parts;
}

/** The body whole, split in two at every offset, and in 1-byte chunks. */
function* splits(body: Buffer): Generator<{ how: string; chunks: Buffer[] }> {
  yield { how: 'whole', chunks: [body] };
  for (let at = 0; at <= body.length; at += 1) {
    yield { how: `split at ${at}`, chunks: [body.subarray(0, at), body.subarray(at)] };
  }
  yield { how: '1-byte chunks', chunks: Array.from(body, (_, at) => body.subarray(at, at + 1)) };
}

const field = (name: string, content: string): Part => ({ name, contentType: 'text/plain', content });

const valid: { what: string; input: string[]; contentType?: string; expected: Part[] }[] = [
  { what: 'one text field', input: ['--xYzZY', FIELD_A, '', 'hello', '--xYzZY--'], expected: [field('a', 'hello')] },
  {
    what: 'a field and a file whose content holds CR, LF and dashes',
    input: ['--xYzZY', FIELD_A, '', '12', '--xYzZY', 'Content-Disposition: form-data; name="avatar"; filename="a.png"',
      'Content-Type: image/png', '', '\r\n-\r\r\n--\n--xYz\r', '--xYzZY--'],
    expected: [field('a', '12'), { name: 'avatar', filename: 'a.png', contentType: 'image/png', content: '\r\n-\r\r\n--\n--xYz\r' }],
  },
  {
    what: 'preamble and epilogue are ignored (RFC 2046 §5.1.1)',
    input: ['This is the preamble. --xYzZY', '', '--xYzZY', FIELD_A, '', 'v', '--xYzZY--', 'epilogue junk', '--xYzZY', 'x'],
    expected: [field('a', 'v')],
  },
  {
    what: 'transport padding after each boundary',
    input: ['--xYzZY \t', FIELD_A, '', 'v', '--xYzZY\t ', FIELD_A.replace('"a"', 'b'), '', 'w', '--xYzZY-- \t'],
    expected: [field('a', 'v'), field('b', 'w')],
  },
  {
    what: 'the boundary inside content without the leading CRLF stays content',
    input: ['--xYzZY', FIELD_A, '', 'a--xYzZY xYzZY\r--xYzZY\n--xYzZY-', '--xYzZY--'],
    expected: [field('a', 'a--xYzZY xYzZY\r--xYzZY\n--xYzZY-')],
  },
  {
    what: 'a near-boundary line inside content stays content',
    input: ['--xYzZY', FIELD_A, '', 'x', '--xYzZX', '--xYzZ', '--xYzZY--'],
    expected: [field('a', 'x\r\n--xYzZX\r\n--xYzZ')],
  },
  {
    what: 'a quoted boundary with a space and a colon',
    contentType: 'Multipart/Form-Data; charset=utf-8; BOUNDARY="a b:c"',
    input: ['--a b:c', FIELD_A, '', 'v', '--a b:c--'],
    expected: [field('a', 'v')],
  },
  { what: 'an empty form is only the close delimiter', input: ['--xYzZY--', ''], expected: [] },
  {
    what: 'header names, parameter names and the media type are case-insensitive',
    input: ['--xYzZY', 'CONTENT-disposition: Form-Data; NAME="a"; FileName="b.gif"', 'content-TYPE: Image/GIF; charset=binary', '', 'GIF', '--xYzZY--'],
    expected: [{ name: 'a', filename: 'b.gif', contentType: 'image/gif', content: 'GIF' }],
  },
  {
    what: 'filename paths are stripped to their last component (RFC 7578 §4.2)',
    input: ['--xYzZY', 'Content-Disposition: form-data; name="f"; filename="C:\\x\\a.png"', '', '1',
      '--xYzZY', 'Content-Disposition: form-data; name="f"; filename="../b.png"', '', '2',
      '--xYzZY', 'Content-Disposition: form-data; name="f"; filename="d/\\\\e\\\\.."', '', '3', '--xYzZY--'],
    expected: [
      { name: 'f', filename: 'a.png', contentType: 'text/plain', content: '1' },
      { name: 'f', filename: 'b.png', contentType: 'text/plain', content: '2' },
      { name: 'f', filename: '', contentType: 'text/plain', content: '3' },
    ],
  },
  {
    what: 'quoted-string escapes and unquoted tokens',
    input: ['--xYzZY', 'Content-Disposition:form-data;name=plain ;  filename = "a \\"quoted\\" name.txt"', '', 'v', '--xYzZY--'],
    expected: [{ name: 'plain', filename: 'a "quoted" name.txt', contentType: 'text/plain', content: 'v' }],
  },
  {
    what: 'UTF-8 names, filenames and values',
    input: ['--xYzZY', 'Content-Disposition: form-data; name="città"', '', 'ünïcödé ✓', '--xYzZY',
      'Content-Disposition: form-data; name="f"; filename="résumé.pdf"', '', '%PDF', '--xYzZY--'],
    expected: [field('città', 'ünïcödé ✓'), { name: 'f', filename: 'résumé.pdf', contentType: 'text/plain', content: '%PDF' }],
  },
  {
    what: 'empty parts, an empty filename, other headers ignored',
    input: ['--xYzZY', FIELD_A, 'Content-Transfer-Encoding: binary', 'X-Custom:  y ', '', '', '--xYzZY',
      'Content-Disposition: form-data; name="f"; filename=""', '', '', '--xYzZY--'],
    expected: [field('a', ''), { name: 'f', filename: '', contentType: 'text/plain', content: '' }],
  },
  {
    what: 'empty parameters, spaces around "=", and repeated unknown headers (RFC 9110 §5.6.6)',
    input: ['--xYzZY', 'Content-Disposition: form-data;; name = "a" ;', 'X-Note: 1', 'x-note: 2', 'Content-Type:  text/csv ', '', 'v', '--xYzZY--'],
    expected: [{ name: 'a', contentType: 'text/csv', content: 'v' }],
  },
  {
    what: 'a field and a file exactly at their limits',
    input: ['--xYzZY', FIELD_A, '', 'f'.repeat(32), '--xYzZY', 'Content-Disposition: form-data; name="b"; filename="b"', '', 'F'.repeat(64), '--xYzZY--'],
    expected: [field('a', 'f'.repeat(32)), { name: 'b', filename: 'b', contentType: 'text/plain', content: 'F'.repeat(64) }],
  },
];

for (const { what, input, contentType, expected } of valid) {
  test(`parses ${what}`, () => {
    for (const { how, chunks } of splits(wire(input))) {
      assert.deepEqual(parseChunks(chunks, contentType), expected, how);
    }
  });
}

const PART = ['--xYzZY', FIELD_A, '', 'v'];
const invalid: { what: string; input: string[]; expected: 'bad-multipart' | 'too-large' }[] = [
  { what: 'a part header starting with a space (obsolete folding)', input: ['--xYzZY', 'Content-Disposition: form-data;', ' name="a"', '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'a part header starting with a tab', input: ['--xYzZY', FIELD_A, '\tX: y', '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'a header line without a colon', input: ['--xYzZY', FIELD_A, 'nonsense', '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'a repeated header', input: ['--xYzZY', FIELD_A, FIELD_A, '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'a bare LF inside a header line', input: ['--xYzZY', `${FIELD_A}\nX: y`, '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'no Content-Disposition', input: ['--xYzZY', 'Content-Type: text/plain', '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'an empty header section', input: ['--xYzZY', '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'a disposition other than form-data', input: ['--xYzZY', 'Content-Disposition: attachment; name="a"', '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'no name parameter', input: ['--xYzZY', 'Content-Disposition: form-data; filename="a.png"', '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'an unterminated quoted string', input: ['--xYzZY', 'Content-Disposition: form-data; name="a', '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'a parameter without a value', input: ['--xYzZY', 'Content-Disposition: form-data; name=', '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'a parameter without a name', input: ['--xYzZY', 'Content-Disposition: form-data; name=a; ="b"', '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'junk after a parameter', input: ['--xYzZY', 'Content-Disposition: form-data; name="a" junk', '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'a repeated Content-Type', input: ['--xYzZY', FIELD_A, 'Content-Type: text/plain', 'content-type: image/png', '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'a NUL in a header', input: ['--xYzZY', `${FIELD_A}\0`, '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'a repeated parameter', input: ['--xYzZY', 'Content-Disposition: form-data; name=a; NAME=b', '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'a boundary followed by other characters', input: ['--xYzZYjunk', FIELD_A, '', 'v', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'the full delimiter inside content', input: [...PART, '--xYzZY is here', '--xYzZY--'], expected: 'bad-multipart' },
  { what: 'a single dash after the boundary', input: [...PART, '--xYzZY-x'], expected: 'bad-multipart' },
  { what: 'line feeds without carriage returns', input: ['--xYzZY\nContent-Disposition: form-data; name="a"\n\nv\n--xYzZY--'], expected: 'bad-multipart' },
  { what: 'a body truncated inside content', input: PART, expected: 'bad-multipart' },
  { what: 'a body truncated inside headers', input: ['--xYzZY', 'Content-Disposition: form-da'], expected: 'bad-multipart' },
  { what: 'a body truncated after a delimiter', input: [...PART, '--xYzZY'], expected: 'bad-multipart' },
  { what: 'a body truncated inside the close delimiter', input: [...PART, '--xYzZY-'], expected: 'bad-multipart' },
  { what: 'a body without any boundary', input: ['just some text', 'xYzZY'], expected: 'bad-multipart' },
  { what: 'an empty body', input: [''], expected: 'bad-multipart' },
  { what: 'a header section over maxHeaderBytes', input: ['--xYzZY', FIELD_A, `X-Padding: ${'a'.repeat(256)}`, '', 'v', '--xYzZY--'], expected: 'too-large' },
  { what: 'many short header lines over maxHeaderBytes', input: ['--xYzZY', FIELD_A, ...Array<string>(64).fill('X: y'), '', 'v', '--xYzZY--'], expected: 'too-large' },
  { what: 'an endless preamble', input: ['p'.repeat(300), ...PART, '--xYzZY--'], expected: 'too-large' },
  { what: 'transport padding over maxHeaderBytes', input: [`--xYzZY${' '.repeat(300)}`, FIELD_A, '', 'v', '--xYzZY--'], expected: 'too-large' },
  { what: 'an epilogue over maxHeaderBytes', input: [...PART, '--xYzZY--', 'e'.repeat(300)], expected: 'too-large' },
  { what: 'more parts than maxParts', input: [...PART, ...PART, ...PART, ...PART, ...PART, '--xYzZY--'], expected: 'too-large' },
  { what: 'a field over maxFieldBytes', input: ['--xYzZY', FIELD_A, '', 'f'.repeat(33), '--xYzZY--'], expected: 'too-large' },
  { what: 'a file over maxFileBytes', input: ['--xYzZY', 'Content-Disposition: form-data; name="f"; filename="f"', '', 'F'.repeat(65), '--xYzZY--'], expected: 'too-large' },
];

for (const { what, input, expected } of invalid) {
  test(`rejects ${what}`, () => {
    for (const { how, chunks } of splits(wire(input))) {
      assert.throws(() => parseChunks(chunks), { name: 'ParseFailure', kind: expected }, how);
    }
  });
}

test('write throws 413 on the chunk that crosses maxFileBytes, before the rest of the body arrives', () => {
  const received: Buffer[] = [];
  const parser = new MultipartParser('xYzZY', LIMITS, {
    onPartStart() {},
    onPartData: (data) => received.push(Buffer.from(data)),
    onPartEnd() {},
  });
  parser.write(wire(['--xYzZY', 'Content-Disposition: form-data; name="f"; filename="f"', '', '']));
  parser.write(Buffer.alloc(40, 'F'));
  parser.write(Buffer.alloc(24, 'F'));
  assert.throws(() => parser.write(Buffer.from('F')), { name: 'ParseFailure', kind: 'too-large' });
  assert.equal(Buffer.concat(received).length, 64);
  assert.throws(() => parser.write(wire(['', '--xYzZY--'])), { kind: 'too-large' }, 'a failed parser stays failed');
});

test('content is passed on as it arrives, holding back only a possible delimiter prefix', () => {
  const received: string[] = [];
  const parser = new MultipartParser('xYzZY', LIMITS, {
    onPartStart() {},
    onPartData: (data) => received.push(data.toString()),
    onPartEnd: () => received.push('<end>'),
  });
  parser.write(wire(['--xYzZY', FIELD_A, '', 'abc\r\n--xY']));
  assert.deepEqual(received, ['abc']);
  parser.write(Buffer.from('q\r'));
  assert.deepEqual(received, ['abc', '\r\n--xYq']);
  parser.write(Buffer.from('\n--xYzZY--'));
  assert.deepEqual(received, ['abc', '\r\n--xYq', '<end>']);
  parser.end();
});

test('long runs of spaces in a header section take linear time', () => {
  const limits = { ...LIMITS, maxHeaderBytes: 512 * 1024 };
  const spaces = ' '.repeat(100_000);
  const body = wire(['--xYzZY', `Content-Disposition: form-data; name=a${spaces};${spaces}filename=b${spaces}`, `X: a${spaces}b`, '', 'v', '--xYzZY--']);
  const started = performance.now();
  assert.deepEqual(parseChunks([body], CONTENT_TYPE, limits), [{ name: 'a', filename: 'b', contentType: 'text/plain', content: 'v' }]);
  // A backtracking regex here would take seconds.
  assert.ok(performance.now() - started < 1000);
});

test('end() reports a truncated body after every write succeeded', () => {
  const parser = new MultipartParser('xYzZY', LIMITS, { onPartStart() {}, onPartData() {}, onPartEnd() {} });
  parser.write(wire(PART));
  assert.throws(() => parser.end(), { name: 'ParseFailure', kind: 'bad-multipart' });
});

test('writing after end() is a programming error, not a ParseFailure', () => {
  const parser = new MultipartParser('xYzZY', LIMITS, { onPartStart() {}, onPartData() {}, onPartEnd() {} });
  parser.write(wire(['--xYzZY--']));
  parser.end();
  assert.throws(() => parser.write(Buffer.from('x')), { name: 'Error', message: /after end/ });
});

const boundaries: { what: string; input: string; expected: string }[] = [
  { what: 'an unquoted boundary', input: 'multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW', expected: '----WebKitFormBoundary7MA4YWxkTrZu0gW' },
  { what: 'a quoted boundary', input: 'multipart/form-data; boundary="a b:c?"', expected: 'a b:c?' },
  { what: 'case-insensitive names and other parameters', input: 'MULTIPART/Form-Data ;charset=utf-8;  BOUNDARY = x ', expected: 'x' },
  { what: 'a boundary of 70 characters', input: `multipart/form-data; boundary=${'b'.repeat(70)}`, expected: 'b'.repeat(70) },
];

for (const { what, input, expected } of boundaries) {
  test(`parseBoundary reads ${what}`, () => assert.equal(parseBoundary(input), expected));
}

const badBoundaries: { what: string; input: string; expected: string }[] = [
  { what: 'no boundary', input: 'multipart/form-data', expected: 'bad-multipart' },
  { what: 'an empty boundary', input: 'multipart/form-data; boundary=""', expected: 'bad-multipart' },
  { what: 'a boundary of 71 characters', input: `multipart/form-data; boundary=${'b'.repeat(71)}`, expected: 'bad-multipart' },
  { what: 'a boundary ending in a space', input: 'multipart/form-data; boundary="abc "', expected: 'bad-multipart' },
  { what: 'a boundary with a quote', input: 'multipart/form-data; boundary="a\\"b"', expected: 'bad-multipart' },
  { what: 'a boundary with a CR', input: 'multipart/form-data; boundary="a\rb"', expected: 'bad-multipart' },
  { what: 'a parameter without a value', input: 'multipart/form-data; boundary', expected: 'bad-multipart' },
  { what: 'two boundaries', input: 'multipart/form-data; boundary=a; boundary=b', expected: 'bad-multipart' },
  { what: 'another multipart type', input: 'multipart/mixed; boundary=x', expected: 'unsupported-type' },
  { what: 'a non-multipart type', input: 'application/json', expected: 'unsupported-type' },
  { what: 'an empty Content-Type', input: '', expected: 'unsupported-type' },
];

for (const { what, input, expected } of badBoundaries) {
  test(`parseBoundary rejects ${what}`, () => assert.throws(() => parseBoundary(input), { name: 'ParseFailure', kind: expected }));
}

async function* stream(body: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < body.length; at += size) yield body.subarray(at, at + size);
}

test('parseMultipart collects UTF-8 fields and files, keeping repeated file names in order', async () => {
  const body = wire(['--xYzZY', 'Content-Disposition: form-data; name="x"', '', '1€', '--xYzZY',
    'Content-Disposition: form-data; name="f"; filename="a.png"', 'Content-Type: image/png', '', '\x89PNG', '--xYzZY',
    'Content-Disposition: form-data; name="f"; filename="b.gif"', 'Content-Type: image/gif', '', 'GIF', '--xYzZY--']);
  const { fields, files } = await parseMultipart(stream(body, 7), CONTENT_TYPE, LIMITS);
  assert.deepEqual(fields, new Map([['x', '1€']]));
  assert.deepEqual(files, [
    { name: 'f', filename: 'a.png', contentType: 'image/png', data: Buffer.from('\x89PNG') },
    { name: 'f', filename: 'b.gif', contentType: 'image/gif', data: Buffer.from('GIF') },
  ]);
});

test('parseMultipart rejects a repeated field name', async () => {
  const body = wire([...PART, ...PART, '--xYzZY--']);
  await assert.rejects(parseMultipart(stream(body, 5), CONTENT_TYPE, LIMITS), { name: 'ParseFailure', kind: 'bad-multipart' });
});

test('parseMultipart rejects a truncated body, a file over its limit and a wrong Content-Type', async () => {
  await assert.rejects(parseMultipart(stream(wire(PART), 3), CONTENT_TYPE, LIMITS), { kind: 'bad-multipart' });
  const big = wire(['--xYzZY', 'Content-Disposition: form-data; name="f"; filename="f"', '', 'F'.repeat(100), '--xYzZY--']);
  await assert.rejects(parseMultipart(stream(big, 10), CONTENT_TYPE, LIMITS), { kind: 'too-large' });
  await assert.rejects(parseMultipart(stream(wire(PART), 3), 'text/plain', LIMITS), { kind: 'unsupported-type' });
});
