// Range requests on attachments (RFC 9110 §14), with the examples of §14.1.2 on a representation of 10000 bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { call, withServer } from './client.ts';
import { createChat, threeUsers } from './chat-fixtures.ts';
import { filePart, postWithFiles } from './attachment-fixtures.ts';
import type { RunningServer } from '../../src/index.ts';
import type { LoggedIn } from './client.ts';

const LENGTH = 10_000;

async function tenThousandBytes(server: RunningServer): Promise<{ bytes: Buffer; href: string; user: LoggedIn }> {
  const { alice } = await threeUsers(server);
  const chat = await createChat(server, alice, { title: 'Ranges' });
  const bytes = randomBytes(LENGTH);
  const res = await postWithFiles(server, alice, chat.id, [filePart('ten.bin', bytes)]);
  assert.equal(res.status, 201, res.text);
  return { bytes, href: res.body.data.attachments[0].href, user: alice };
}

/** The parts of a multipart/byteranges body: each part's headers and bytes. */
function parseByteranges(raw: Buffer, contentType: string): { headers: Record<string, string>; body: Buffer }[] {
  const boundary = /boundary=([^;]+)/.exec(contentType)![1]!;
  const parts: { headers: Record<string, string>; body: Buffer }[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let at = raw.indexOf(delimiter);
  for (;;) {
    const after = at + delimiter.length;
    if (raw.subarray(after, after + 2).toString() === '--') break;
    const headerEnd = raw.indexOf('\r\n\r\n', after);
    const headers = Object.fromEntries(raw.subarray(after + 2, headerEnd).toString('latin1').split('\r\n').map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }));
    const next = raw.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    parts.push({ headers, body: raw.subarray(headerEnd + 4, next) });
    at = next + 2;
  }
  assert.equal(raw.subarray(at).toString(), `--${boundary}--\r\n`);
  return parts;
}

test('single ranges of RFC 9110 §14.1.2: first 500, second 500, the last 500 two ways, one byte', async (t) => {
  const server = await withServer(t);
  const { bytes, href, user } = await tenThousandBytes(server);
  const cases: [string, number, number][] = [['bytes=0-499', 0, 499], ['bytes=500-999', 500, 999], ['bytes=-500', 9500, 9999], ['bytes=9500-', 9500, 9999], ['bytes=0-0', 0, 0],
    // A last-pos past the end is clipped (§14.1.2); a suffix longer than the file is all of it.
    ['bytes=9000-20000', 9000, 9999], ['bytes=-20000', 0, 9999], ['BYTES=1-2', 1, 2]];
  for (const [range, start, end] of cases) {
    const res = await call(server, 'GET', href, { token: user.token, headers: { range } });
    assert.equal(res.status, 206, range);
    assert.equal(res.headers['content-range'], `bytes ${start}-${end}/${LENGTH}`, range);
    assert.equal(res.headers['content-length'], String(end - start + 1), range);
    assert.equal(res.headers['content-type'], 'application/octet-stream', range);
    assert.equal(res.headers['etag'], `"${createHash('sha256').update(bytes).digest('hex')}"`, range);
    assert.ok(res.raw.equals(bytes.subarray(start, end + 1)), range);
  }
});

test('several ranges answer multipart/byteranges, in the order asked; overlapping ones coalesce', async (t) => {
  const server = await withServer(t);
  const { bytes, href, user } = await tenThousandBytes(server);
  const res = await call(server, 'GET', href, { token: user.token, headers: { range: 'bytes=0-0,-1' } });
  assert.equal(res.status, 206);
  assert.match(String(res.headers['content-type']), /^multipart\/byteranges; boundary=[A-Za-z0-9_-]+$/);
  assert.equal(res.headers['content-range'], undefined);
  assert.equal(res.headers['content-length'], String(res.raw.length));
  const parts = parseByteranges(res.raw, String(res.headers['content-type']));
  assert.deepEqual(parts.map((part) => part.headers), [
    { 'content-type': 'application/octet-stream', 'content-range': `bytes 0-0/${LENGTH}` },
    { 'content-type': 'application/octet-stream', 'content-range': `bytes 9999-9999/${LENGTH}` },
  ]);
  assert.deepEqual(parts.map((part) => [...part.body]), [[bytes[0]], [bytes[9999]]]);
  // §14.1.2's "bytes= 500-600,601-999": two parts, in order; "500-700,601-999" overlaps: one range 500-999.
  const spaced = await call(server, 'GET', href, { token: user.token, headers: { range: 'bytes= 500-600 , 601-999' } });
  const spacedParts = parseByteranges(spaced.raw, String(spaced.headers['content-type']));
  assert.deepEqual(spacedParts.map((part) => part.headers['content-range']), [`bytes 500-600/${LENGTH}`, `bytes 601-999/${LENGTH}`]);
  assert.ok(Buffer.concat(spacedParts.map((part) => part.body)).equals(bytes.subarray(500, 1000)));
  const overlapping = await call(server, 'GET', href, { token: user.token, headers: { range: 'bytes=500-700,601-999' } });
  assert.equal(overlapping.status, 206);
  assert.equal(overlapping.headers['content-range'], `bytes 500-999/${LENGTH}`);
  assert.ok(overlapping.raw.equals(bytes.subarray(500, 1000)));
  // Reverse order stays reversed (§14.6: in the order of the range-specs).
  const reversed = await call(server, 'GET', href, { token: user.token, headers: { range: 'bytes=9000-9001,0-1' } });
  assert.deepEqual(parseByteranges(reversed.raw, String(reversed.headers['content-type'])).map((part) => part.headers['content-range']),
    [`bytes 9000-9001/${LENGTH}`, `bytes 0-1/${LENGTH}`]);
});

test('416 when no range lies within the file; unsatisfiable ranges among good ones are left out', async (t) => {
  const server = await withServer(t);
  const { bytes, href, user } = await tenThousandBytes(server);
  for (const range of ['bytes=10000-', 'bytes=20000-30000', 'bytes=-0', 'bytes=10000-10001,-0']) {
    const res = await call(server, 'GET', href, { token: user.token, headers: { range } });
    assert.equal(res.status, 416, range);
    assert.equal(res.headers['content-range'], `bytes */${LENGTH}`, range);
    assert.equal(res.body.code, 'ERR_RANGE_NOT_SATISFIABLE', range);
  }
  const mixed = await call(server, 'GET', href, { token: user.token, headers: { range: 'bytes=20000-,5-9' } });
  assert.equal(mixed.status, 206);
  assert.equal(mixed.headers['content-range'], `bytes 5-9/${LENGTH}`);
  assert.ok(mixed.raw.equals(bytes.subarray(5, 10)));
});

test('a Range that does not parse, of another unit, or of too many ranges is ignored: 200 with everything', async (t) => {
  const server = await withServer(t);
  const { bytes, href, user } = await tenThousandBytes(server);
  const many = `bytes=${Array.from({ length: 33 }, (_, index) => `${index * 10}-${index * 10 + 1}`).join(',')}`;
  for (const range of ['bytes=5-1', 'bytes=a-b', 'items=0-1', 'bytes', 'bytes=', '0-1', many]) {
    const res = await call(server, 'GET', href, { token: user.token, headers: { range } });
    assert.equal(res.status, 200, range);
    assert.ok(res.raw.equals(bytes), range);
  }
});

test('If-Range: the current ETag honours the Range; another tag, a weak one or a date gets the whole', async (t) => {
  const server = await withServer(t);
  const { bytes, href, user } = await tenThousandBytes(server);
  const etag = `"${createHash('sha256').update(bytes).digest('hex')}"`;
  const honoured = await call(server, 'GET', href, { token: user.token, headers: { range: 'bytes=0-9', 'if-range': etag } });
  assert.equal(honoured.status, 206);
  assert.ok(honoured.raw.equals(bytes.subarray(0, 10)));
  for (const ifRange of ['"something-else"', `W/${etag}`, 'Fri, 27 Nov 2026 10:00:00 GMT']) {
    const res = await call(server, 'GET', href, { token: user.token, headers: { range: 'bytes=0-9', 'if-range': ifRange } });
    assert.equal(res.status, 200, ifRange);
    assert.ok(res.raw.equals(bytes), ifRange);
  }
  // HEAD ignores Range (§14.2 defines it for GET): the whole length, no body.
  const head = await call(server, 'HEAD', href, { token: user.token, headers: { range: 'bytes=0-9' } });
  assert.equal(head.status, 200);
  assert.equal(head.headers['content-length'], String(LENGTH));
  // If-None-Match is evaluated before Range: 304.
  const cached = await call(server, 'GET', href, { token: user.token, headers: { range: 'bytes=0-9', 'if-none-match': etag } });
  assert.equal(cached.status, 304);
});
