// Avatars are whole images, over HTTP: the findings (polyglots, appended HTML, a cut GIF, a relabelled PNG),
// the pixel limit, and random cuts and corruptions of valid files, all refused and never stored.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import type { RunningServer } from '../../src/index.ts';
import { avatarForm, gif, jpeg, multipart, MULTIPART_TYPE, png, webp } from './avatar-fixtures.ts';
import { call, registerAndLogIn, withServer, type LoggedIn, type TestResponse } from './client.ts';

const ZONE = { x: 0, y: 0, width: 1, height: 1 };
const HTML = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>');

function upload(server: RunningServer, user: LoggedIn, image: Buffer): Promise<TestResponse> {
  return call(server, 'POST', `/users/${user.userId}/avatar`, { token: user.token, body: multipart(avatarForm(image, ZONE)), headers: { 'content-type': MULTIPART_TYPE } });
}

async function storedCount(server: RunningServer, user: LoggedIn): Promise<number> {
  return (await call(server, 'GET', `/users/${user.userId}/avatar`, { token: user.token })).body.meta.total;
}

function assertBadImage(res: TestResponse, detail: RegExp, what: string): void {
  assert.equal(res.status, 400, `${what}: ${res.text}`);
  assert.equal(res.body.code, 'ERR_BAD_IMAGE', what);
  assert.deepEqual(res.body.errors.map((error: { field: string }) => error.field), ['avatar'], what);
  assert.match(res.body.detail, detail, what);
}

/** The 1x1 PNG with IHDR's width and height replaced and its CRC fixed, as a careful attacker would. */
function relabelled(width: number, height: number): Buffer {
  const bytes = Buffer.from(png(1, 1));
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

test('the findings: a PNG header followed by HTML, a PNG with HTML appended, a cut GIF and a relabelled PNG are refused', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const onePixel = png(1, 1);
  const rows = [
    { what: 'a PNG header followed by HTML', image: Buffer.concat([onePixel.subarray(0, 33), HTML]), detail: /image\/png/ },
    { what: 'a PNG with HTML appended', image: Buffer.concat([onePixel, HTML]), detail: /bytes after IEND/ },
    { what: 'a 10-byte GIF claiming 65535x65535', image: Buffer.from([...Buffer.from('GIF89a'), 0xff, 0xff, 0xff, 0xff]), detail: /image\/gif.*cut short/ },
    { what: 'a 1x1 PNG relabelled 100000x100000', image: (() => { const b = Buffer.from(onePixel); b.writeUInt32BE(100_000, 16); b.writeUInt32BE(100_000, 20); return b; })(), detail: /wrong CRC in the IHDR/ },
    { what: 'the same with its CRC fixed', image: relabelled(100_000, 100_000), detail: /100000x100000 pixels, over the limit of 40000000/ },
    { what: 'a JPEG with HTML after EOI', image: Buffer.concat([jpeg(4, 4), HTML]), detail: /after EOI/ },
    { what: 'a WebP with HTML appended', image: Buffer.concat([webp(4, 4), HTML]), detail: /RIFF size/ },
  ];
  for (const { what, image, detail } of rows) {
    assertBadImage(await upload(server, alice, image), detail, what);
    const json = await call(server, 'POST', `/users/${alice.userId}/avatar`, { token: alice.token, json: { avatar: image.toString('base64'), ...ZONE } });
    assertBadImage(json, detail, `${what} (JSON)`);
  }
  assert.equal(await storedCount(server, alice), 0);
  for (const image of [png(4, 4), jpeg(4, 4), gif(4, 4), webp(4, 4)]) assert.equal((await upload(server, alice, image)).status, 201);
});

test('--max-avatar-pixels caps width x height', async (t) => {
  const server = await withServer(t, { maxAvatarPixels: 100 });
  const alice = await registerAndLogIn(server, 'alice');
  assert.equal((await upload(server, alice, png(10, 10))).status, 201);
  assertBadImage(await upload(server, alice, png(11, 10)), /11x10 pixels, over the limit of 100/, '110 pixels');
  assertBadImage(await upload(server, alice, gif(101, 1)), /101x1 pixels/, 'a GIF of 101 pixels');
  assert.equal(await storedCount(server, alice), 1);
});

test('random cuts, appended bytes and (for PNG) any changed byte of a valid image are refused and never stored', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const samples = [png(5, 4), jpeg(9, 9), gif(5, 4), webp(5, 4)];
  const damaged = fc.oneof(
    fc.record({ sample: fc.constantFrom(...samples), cut: fc.nat() }).map(({ sample, cut }) => sample.subarray(0, cut % sample.length)),
    fc.record({ sample: fc.constantFrom(...samples), extra: fc.uint8Array({ minLength: 1, maxLength: 40 }) }).map(({ sample, extra }) => Buffer.concat([sample, extra])),
    fc.record({ at: fc.nat(), delta: fc.integer({ min: 1, max: 255 }) }).map(({ at, delta }) => {
      const copy = Buffer.from(samples[0]!);
      copy[at % copy.length] = (copy[at % copy.length]! + delta) & 0xff;
      return copy;
    }),
  );
  await fc.assert(
    fc.asyncProperty(damaged, async (image) => {
      const res = await upload(server, alice, image);
      assert.ok(res.status === 400 || res.status === 415, `${res.status} ${res.text}`);
      assert.ok(['ERR_BAD_IMAGE', 'ERR_UNSUPPORTED_IMAGE'].includes(res.body.code), res.text);
    }),
    { numRuns: 60 },
  );
  assert.equal(await storedCount(server, alice), 0);
});
