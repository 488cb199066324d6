// Avatars over a real socket (docs/protocol.md §3): both upload forms, images by their bytes, the zone, limits, list order, delete, image URL.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { avatarForm, gif, jpeg, multipart, MULTIPART_TYPE, png, webp, type FormPart, type Zone } from './avatar-fixtures.ts';
import { call, rawExchange, registerAndLogIn, TestClock, withServer, type LoggedIn, type TestResponse } from './client.ts';

const ZONE = { x: 0, y: 0, width: 1, height: 1 };

function postForm(server: RunningServer, user: LoggedIn, parts: readonly FormPart[], userId = user.userId): Promise<TestResponse> {
  return call(server, 'POST', `/users/${userId}/avatar`, { token: user.token, body: multipart(parts), headers: { 'content-type': MULTIPART_TYPE } });
}

function postJson(server: RunningServer, user: LoggedIn, json: unknown, userId = user.userId): Promise<TestResponse> {
  return call(server, 'POST', `/users/${userId}/avatar`, { token: user.token, json });
}

async function upload(server: RunningServer, user: LoggedIn, image: Buffer = png(2, 2), zone: Zone = ZONE): Promise<any> {
  const res = await postForm(server, user, avatarForm(image, zone));
  assert.equal(res.status, 201, res.text);
  return res.body;
}

function assertProblem(res: TestResponse, status: number, code: string, field?: string, what = ''): void {
  const context = `${what} ${res.text}`;
  assert.equal(res.status, status, context);
  assert.equal(res.headers['content-type'], 'application/problem+json', context);
  assert.equal(res.body.code, code, context);
  if (field !== undefined) {
    assert.deepEqual(res.body.errors?.map((error: { field: string }) => error.field), [field], context);
    assert.ok(res.body.detail.startsWith(`${field}: `), context);
  }
}

const ids = (res: TestResponse): string[] => res.body.data.map((avatar: { id: string }) => avatar.id);
const strongTagOf = (bytes: Buffer): string => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

test('a multipart upload answers 201, Location and the avatar; the declared type and the filename are not trusted', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const alice = await registerAndLogIn(server, 'alice');
  const image = png(4, 3);
  const res = await postForm(server, alice, avatarForm(image, { x: 1, y: 0.5, width: 2, height: 2.5 }, { filename: 'C:\\photos\\me.gif', type: 'image/gif' }));
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers['content-type'], 'application/json');
  const { id } = res.body;
  assert.match(id, /^[0-9A-Z]{26}$/);
  assert.equal(res.headers['location'], `/users/${alice.userId}/avatar/${id}`);
  assert.match(String(res.headers['etag']), /^"[A-Za-z0-9_-]{27}"$/);
  const expected = {
    id, userId: alice.userId, avatar: `/users/${alice.userId}/avatar/${id}/image`, contentType: 'image/png',
    imageWidth: 4, imageHeight: 3, x: 1, y: 0.5, width: 2, height: 2.5, createdAt: new Date(clock.time).toISOString(),
  };
  assert.deepEqual(res.body, expected);
  const read = await call(server, 'GET', `/users/${alice.userId}/avatar/${id}`, { token: alice.token });
  assert.equal(read.status, 200);
  assert.deepEqual(read.body, expected);
  assert.equal(read.headers['etag'], res.headers['etag']);
  const user = await call(server, 'GET', `/users/${alice.userId}`, { token: alice.token });
  assert.equal(user.body.avatar, null, 'an upload does not become the current avatar');
  const image2 = await call(server, 'GET', expected.avatar);
  assert.deepEqual(image2.raw, image);
});

test('the JSON form takes base64, wrapped base64, URL-safe base64 and data: URLs; PNG, JPEG, GIF and WebP are read by their bytes', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const wrapped = (bytes: Buffer): string => bytes.toString('base64').replace(/.{1,76}/g, '$&\r\n');
  const rows = [
    { what: 'PNG, base64', avatar: png(5, 7).toString('base64'), type: 'image/png', size: [5, 7] },
    { what: 'JPEG, data: URL', avatar: `data:image/jpeg;base64,${jpeg(640, 480).toString('base64')}`, type: 'image/jpeg', size: [640, 480] },
    { what: 'GIF, data: URL declaring another type', avatar: `data:image/png;base64,${gif(10, 20).toString('base64')}`, type: 'image/gif', size: [10, 20] },
    { what: 'WebP, URL-safe base64 without padding', avatar: webp(300, 200).toString('base64url'), type: 'image/webp', size: [300, 200] },
    { what: 'PNG, base64 wrapped at 76', avatar: wrapped(png(30, 30)), type: 'image/png', size: [30, 30] },
  ];
  for (const { what, avatar, type, size } of rows) {
    const res = await postJson(server, alice, { avatar, x: 0, y: 0, width: 1, height: 1 });
    assert.equal(res.status, 201, `${what}: ${res.text}`);
    assert.deepEqual([res.body.contentType, res.body.imageWidth, res.body.imageHeight], [type, ...size], what);
    assert.equal(res.headers['location'], `/users/${alice.userId}/avatar/${res.body.id}`);
  }
  const multipartJpeg = await postForm(server, alice, avatarForm(jpeg(33, 44), { x: 3, y: 4, width: 30, height: 40 }, { type: 'application/octet-stream' }));
  assert.equal(multipartJpeg.status, 201);
  assert.equal(multipartJpeg.body.contentType, 'image/jpeg');
});

test('the image URL answers the bytes without a token: exact headers, 304 on If-None-Match, HEAD without a body', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const image = png(6, 6);
  const avatar = await upload(server, alice, image);
  const res = await call(server, 'GET', avatar.avatar);
  assert.equal(res.status, 200);
  assert.deepEqual(res.raw, image);
  const etag = strongTagOf(image);
  const expectedHeaders = {
    'content-type': 'image/png',
    'content-length': String(image.length),
    'etag': etag,
    'cache-control': 'public, max-age=31536000, immutable',
    'content-security-policy': "default-src 'none'; sandbox",
    'content-disposition': 'inline',
    'x-content-type-options': 'nosniff',
  };
  for (const [name, value] of Object.entries(expectedHeaders)) assert.equal(res.headers[name], value, name);
  assert.equal(res.headers['vary'], undefined, 'the bytes are not negotiated');
  assert.equal(res.headers['set-cookie'], undefined);

  const notModified = await call(server, 'GET', avatar.avatar, { headers: { 'if-none-match': etag } });
  assert.equal(notModified.status, 304);
  assert.equal(notModified.raw.length, 0);
  assert.equal(notModified.headers['etag'], etag);
  assert.equal(notModified.headers['cache-control'], expectedHeaders['cache-control']);
  const listed = await call(server, 'GET', avatar.avatar, { headers: { 'if-none-match': `"other", ${etag}` } });
  assert.equal(listed.status, 304);
  const stale = await call(server, 'GET', avatar.avatar, { headers: { 'if-none-match': '"other"' } });
  assert.equal(stale.status, 200);
  assert.deepEqual(stale.raw, image);

  const head = await call(server, 'HEAD', avatar.avatar);
  assert.equal(head.status, 200);
  assert.equal(head.raw.length, 0);
  for (const [name, value] of Object.entries(expectedHeaders)) assert.equal(head.headers[name], value, `HEAD ${name}`);
  const headNotModified = await call(server, 'HEAD', avatar.avatar, { headers: { 'if-none-match': etag } });
  assert.equal(headNotModified.status, 304);

  const withToken = await call(server, 'GET', avatar.avatar, { token: alice.token, headers: { accept: 'text/html' } });
  assert.equal(withToken.status, 200, 'Accept does not matter: the bytes are the only representation');
  assert.equal(withToken.headers['content-type'], 'image/png');
  const bob = await registerAndLogIn(server, 'bob');
  assertProblem(await call(server, 'GET', `/users/${bob.userId}/avatar/${avatar.id}/image`), 404, 'ERR_NOT_FOUND');
  assertProblem(await call(server, 'GET', `/users/${alice.userId}/avatar/NOSUCHAVATAR/image`), 404, 'ERR_NOT_FOUND');
  assertProblem(await call(server, 'POST', avatar.avatar, { body: 'x' }), 405, 'ERR_METHOD_NOT_ALLOWED');
});

test('another Content-Type is 415; an image is recognised by its bytes, anything else is 415 and a cut image 400', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const path = `/users/${alice.userId}/avatar`;
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'image/png', undefined]) {
    const headers: Record<string, string> = type === undefined ? {} : { 'content-type': type };
    const res = await call(server, 'POST', path, { token: alice.token, body: png(1, 1), headers });
    assertProblem(res, 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    assert.equal(res.headers['accept-post'], 'multipart/form-data, application/json', String(type));
  }
  const whole = png(8, 8);
  const rows = [
    { what: 'a text file named x.png', data: Buffer.from('hello, I am not a picture\n') },
    { what: 'an empty file', data: Buffer.alloc(0) },
    { what: 'a PNG cut inside its signature', data: whole.subarray(0, 6) },
    { what: 'a GIF cut inside its signature', data: gif(8, 8).subarray(0, 4) },
    { what: 'an SVG', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>') },
    { what: 'a BMP', data: Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]) },
  ];
  for (const { what, data } of rows) {
    assertProblem(await postForm(server, alice, avatarForm(data, ZONE, { filename: 'x.png', type: 'image/png' })), 415, 'ERR_UNSUPPORTED_IMAGE', 'avatar', what);
    // The JSON form refuses an empty string as a 400 before looking at it; one zero byte stands in.
    assertProblem(await postJson(server, alice, { avatar: data.toString('base64') || 'AA==', ...ZONE }), 415, 'ERR_UNSUPPORTED_IMAGE', 'avatar', what);
  }
  const cut = [
    { what: 'a PNG cut inside IHDR', data: whole.subarray(0, 20) },
    { what: 'a JPEG cut inside its frame header', data: jpeg(8, 8).subarray(0, 24) },
    { what: 'a GIF cut inside its screen descriptor', data: gif(8, 8).subarray(0, 8) },
    { what: 'a WebP cut inside its VP8L header', data: webp(8, 8).subarray(0, 22) },
  ];
  for (const { what, data } of cut) {
    assertProblem(await postForm(server, alice, avatarForm(data, ZONE, { filename: 'x.png', type: 'image/png' })), 400, 'ERR_BAD_IMAGE', 'avatar', what);
    assertProblem(await postJson(server, alice, { avatar: data.toString('base64'), ...ZONE }), 400, 'ERR_BAD_IMAGE', 'avatar', what);
  }
  const list = await call(server, 'GET', path, { token: alice.token });
  assert.equal(list.body.meta.total, 0, 'nothing was stored');
});

test('unknown, missing, repeated or misplaced fields are 400 naming them, in both forms', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const image = png(4, 4);
  const form = avatarForm(image, ZONE);
  const without = (name: string): FormPart[] => form.filter((part) => part.name !== name);
  const replacing = (name: string, part: FormPart): FormPart[] => form.map((existing) => (existing.name === name ? part : existing));
  const formRows: { what: string; parts: FormPart[]; field: string }[] = [
    { what: 'an unknown text part', parts: [...form, { name: 'rotation', data: '90' }], field: 'rotation' },
    { what: 'an unknown file part', parts: [{ name: 'picture', filename: 'a.png', data: image }, ...form], field: 'picture' },
    ...['avatar', 'x', 'y', 'width', 'height'].map((name) => ({ what: `no ${name}`, parts: without(name), field: name })),
    { what: 'x twice', parts: [...form, { name: 'x', data: '0' }], field: 'x' },
    { what: 'two files', parts: [...form, form[0]!], field: 'avatar' },
    { what: 'avatar as a text part', parts: replacing('avatar', { name: 'avatar', data: image.toString('base64') }), field: 'avatar' },
    { what: 'x as a file', parts: replacing('x', { name: 'x', filename: 'x.txt', data: '0' }), field: 'x' },
    { what: 'x not a number', parts: replacing('x', { name: 'x', data: 'left' }), field: 'x' },
    { what: 'y empty', parts: replacing('y', { name: 'y', data: '' }), field: 'y' },
    { what: 'width in exponent form', parts: replacing('width', { name: 'width', data: '1e0' }), field: 'width' },
  ];
  for (const { what, parts, field } of formRows) assertProblem(await postForm(server, alice, parts), 400, 'ERR_VALIDATION', field, what);
  const valid = { avatar: image.toString('base64'), ...ZONE };
  const jsonRows: { what: string; json: Record<string, unknown>; field: string }[] = [
    { what: 'an unknown field', json: { ...valid, rotation: 90 }, field: 'rotation' },
    { what: 'an id', json: { ...valid, id: 'mine' }, field: 'id' },
    ...['avatar', 'x', 'y', 'width', 'height'].map((name) => ({ what: `no ${name}`, json: Object.fromEntries(Object.entries(valid).filter(([key]) => key !== name)), field: name })),
    { what: 'x as a string', json: { ...valid, x: '0' }, field: 'x' },
    { what: 'height null', json: { ...valid, height: null }, field: 'height' },
    { what: 'avatar a number', json: { ...valid, avatar: 42 }, field: 'avatar' },
    { what: 'avatar empty', json: { ...valid, avatar: '' }, field: 'avatar' },
    { what: 'avatar not base64', json: { ...valid, avatar: 'not base64!' }, field: 'avatar' },
    { what: 'avatar with a stray padding', json: { ...valid, avatar: `${valid.avatar}=` }, field: 'avatar' },
  ];
  for (const { what, json, field } of jsonRows) assertProblem(await postJson(server, alice, json), 400, 'ERR_VALIDATION', field, what);
  assertProblem(await call(server, 'POST', `/users/${alice.userId}/avatar`, { token: alice.token, body: '{"avatar":', headers: { 'content-type': 'application/json' } }), 400, 'ERR_BAD_JSON');
  assert.equal((await call(server, 'GET', `/users/${alice.userId}/avatar`, { token: alice.token })).body.meta.total, 0);
});

test('the zone must lie inside the image: each broken rule is a 400 naming its field', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const image = png(4, 3);
  const rows = [
    { zone: { x: -1, y: 0, width: 1, height: 1 }, field: 'x' },
    { zone: { x: 0, y: -0.5, width: 1, height: 1 }, field: 'y' },
    { zone: { x: 0, y: 0, width: 0, height: 1 }, field: 'width' },
    { zone: { x: 0, y: 0, width: -2, height: 1 }, field: 'width' },
    { zone: { x: 0, y: 0, width: 1, height: 0 }, field: 'height' },
    { zone: { x: 3, y: 0, width: 2, height: 1 }, field: 'width' },
    { zone: { x: 0, y: 0, width: 4.5, height: 1 }, field: 'width' },
    { zone: { x: 0, y: 2, width: 1, height: 2 }, field: 'height' },
    { zone: { x: 4, y: 3, width: 1, height: 1 }, field: 'width' },
  ];
  for (const { zone, field } of rows) {
    const what = JSON.stringify(zone);
    assertProblem(await postJson(server, alice, { avatar: image.toString('base64'), ...zone }), 400, 'ERR_VALIDATION', field, what);
    assertProblem(await postForm(server, alice, avatarForm(image, zone)), 400, 'ERR_VALIDATION', field, what);
  }
  const edges = [{ x: 0, y: 0, width: 4, height: 3 }, { x: 3.5, y: 2.25, width: 0.5, height: 0.75 }];
  for (const zone of edges) {
    const res = await postJson(server, alice, { avatar: image.toString('base64'), ...zone });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual([res.body.x, res.body.y, res.body.width, res.body.height], [zone.x, zone.y, zone.width, zone.height]);
  }
});

test('a malformed or truncated multipart body is a 400, and the server answers the next request', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const body = multipart(avatarForm(png(2, 2), ZONE));
  const send = (contentType: string, payload: Buffer | string): Promise<TestResponse> =>
    call(server, 'POST', `/users/${alice.userId}/avatar`, { token: alice.token, body: payload, headers: { 'content-type': contentType } });
  const rows = [
    { what: 'no boundary', type: 'multipart/form-data', payload: body },
    { what: 'an empty boundary', type: 'multipart/form-data; boundary=""', payload: body },
    { what: 'cut before the close delimiter', type: MULTIPART_TYPE, payload: body.subarray(0, body.length - 10) },
    { what: 'cut inside the file', type: MULTIPART_TYPE, payload: body.subarray(0, 150) },
    { what: 'another boundary than declared', type: 'multipart/form-data; boundary=elsewhere', payload: body },
    { what: 'an empty body', type: MULTIPART_TYPE, payload: '' },
    { what: 'a part without a name', type: MULTIPART_TYPE, payload: body.toString('latin1').replace('name="x"', 'filler="x"') },
    { what: 'a part header starting with a space', type: MULTIPART_TYPE, payload: body.toString('latin1').replace('\r\nContent-Type: image/png', '\r\n Content-Type: image/png') },
  ];
  for (const { what, type, payload } of rows) {
    const res = await send(type, Buffer.from(payload as string | Buffer));
    assert.equal(res.status, 400, `${what}: ${res.text}`);
    assert.equal(res.body.code, 'ERR_BAD_MULTIPART', what);
  }
  assert.equal((await call(server, 'GET', '/health')).status, 200);
  assert.equal((await send(MULTIPART_TYPE, body)).status, 201, 'the same body whole is fine');

  // Refused at an unknown part's headers while most of the declared body is still to come: 400, then the connection closes.
  const unknownPart = multipart([{ name: 'rotation', data: '90' }]);
  const start = unknownPart.subarray(0, unknownPart.indexOf('\r\n\r\n') + 4);
  const head = `POST /users/${alice.userId}/avatar HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${alice.token}\r\nContent-Type: ${MULTIPART_TYPE}\r\nContent-Length: 5000\r\n\r\n`;
  const answer = await rawExchange(server, Buffer.concat([Buffer.from(head), start]), { endAfterWrite: false });
  assert.match(answer, /^HTTP\/1\.1 400 /);
  assert.match(answer, /\r\nConnection: close\r\n/i);
  assert.match(answer, /"field":"rotation"/);
});

test('a multipart body arriving one byte per chunk is read like a whole one', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const image = png(3, 2);
  const body = multipart(avatarForm(image, { x: 1, y: 1, width: 2, height: 1 }));
  const res = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(`${server.url}/users/${alice.userId}/avatar`, {
      method: 'POST', agent: false, headers: { 'content-type': MULTIPART_TYPE, authorization: `Bearer ${alice.token}` },
    }, (answer) => {
      let text = '';
      answer.on('data', (chunk: Buffer) => { text += chunk; });
      answer.on('end', () => resolve({ status: answer.statusCode!, text }));
    });
    req.on('error', reject);
    // Chunked transfer coding: each write is one chunk on the wire.
    for (const byte of body) req.write(Buffer.from([byte]));
    req.end();
  });
  assert.equal(res.status, 201, res.text);
  const avatar = JSON.parse(res.text);
  assert.deepEqual((await call(server, 'GET', avatar.avatar)).raw, image);
});

/** Streams a body that never ends by itself: the answer can only come from counting while it streams. */
function streamEndlessly(server: RunningServer, user: LoggedIn, contentType: string, start: Buffer, filler: number): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/users/${user.userId}/avatar`, {
      method: 'POST', agent: false, headers: { 'content-type': contentType, authorization: `Bearer ${user.token}` },
    }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => { text += chunk; });
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, body: JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', (error: NodeJS.ErrnoException) => (['ECONNRESET', 'EPIPE'].includes(error.code ?? '') ? undefined : reject(error)));
    const chunk = Buffer.alloc(16 * 1024, filler);
    const pump = (): void => {
      while (!req.destroyed && req.write(chunk));
      if (!req.destroyed) req.once('drain', pump);
    };
    req.write(start);
    pump();
  });
}

test('an image over --max-avatar-bytes is a 413 naming the image limit, while the body is still streaming, and the server stays up', async (t) => {
  const max = 2000;
  const server = await withServer(t, { maxAvatarBytes: max });
  const alice = await registerAndLogIn(server, 'alice');
  const path = `/users/${alice.userId}/avatar`;
  const fits = png(2, 2, max);
  const over = png(2, 2, max + 1);
  // Whichever count notices it (the image, the file part, the declared or the streamed body), the answer
  // names the image limit and its option, never the body's own allowance.
  const imageLimit = 'avatar: the image is over the avatar size limit of 2000 bytes (--max-avatar-bytes)';
  const assertImageTooLarge = (res: TestResponse, what: string): void => {
    assertProblem(res, 413, 'ERR_BODY_TOO_LARGE', 'avatar', what);
    assert.equal(res.body.detail, imageLimit, what);
  };
  assert.equal((await postForm(server, alice, avatarForm(fits, ZONE))).status, 201, 'exactly the limit is fine');
  assertImageTooLarge(await postForm(server, alice, avatarForm(over, ZONE)), 'multipart, one byte over');
  assert.equal((await postJson(server, alice, { avatar: fits.toString('base64'), ...ZONE })).status, 201);
  assertImageTooLarge(await postJson(server, alice, { avatar: over.toString('base64'), ...ZONE }), 'JSON, one byte over');
  // A JSON body over the base64 size of the limit (plus its allowance) is refused while it is read.
  assertImageTooLarge(await postJson(server, alice, { avatar: png(2, 2, 10 * max).toString('base64'), ...ZONE }), 'JSON body over its allowance');
  assertImageTooLarge(await postForm(server, alice, avatarForm(png(2, 2, 10 * max), ZONE)), 'multipart body over its allowance');

  // A declared length over the multipart limit (image + 16 KiB) is refused before a byte of the body is read.
  const declared = await rawExchange(server, `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${alice.token}\r\nContent-Type: ${MULTIPART_TYPE}\r\nContent-Length: ${max + 16 * 1024 + 1}\r\n\r\n--`, { endAfterWrite: false });
  assert.match(declared, /^HTTP\/1\.1 413 /);
  assert.match(declared, /"code":"ERR_BODY_TOO_LARGE"/);
  assert.ok(declared.includes(imageLimit), declared);

  const fileHead = multipart([{ name: 'avatar', filename: 'big.png', type: 'image/png', data: png(2, 2) }]);
  const endlessFile = await streamEndlessly(server, alice, MULTIPART_TYPE, fileHead.subarray(0, fileHead.indexOf('\r\n--', 10)), 0x61);
  assert.deepEqual([endlessFile.status, endlessFile.body.code, endlessFile.body.detail], [413, 'ERR_BODY_TOO_LARGE', imageLimit]);
  const endlessJson = await streamEndlessly(server, alice, 'application/json', Buffer.from('{"avatar":"'), 0x41);
  assert.deepEqual([endlessJson.status, endlessJson.body.code, endlessJson.body.detail], [413, 'ERR_BODY_TOO_LARGE', imageLimit]);

  assert.equal((await call(server, 'GET', '/health')).status, 200);
  const list = await call(server, 'GET', path, { token: alice.token });
  assert.equal(list.body.meta.total, 2, 'only the two that fit were stored');
});

test('only the user themself uploads and deletes; any logged-in user reads; unknown users and foreign paths are 404', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  const form = avatarForm(png(2, 2), ZONE);
  const forbidden = await postForm(server, bob, form, alice.userId);
  assertProblem(forbidden, 403, 'ERR_FORBIDDEN');
  assertProblem(await postJson(server, bob, { avatar: png(2, 2).toString('base64'), ...ZONE }, alice.userId), 403, 'ERR_FORBIDDEN');
  assertProblem(await postForm(server, alice, form, 'NOSUCHUSER'), 404, 'ERR_NOT_FOUND');
  assertProblem(await call(server, 'POST', `/users/${alice.userId}/avatar`, { body: multipart(form), headers: { 'content-type': MULTIPART_TYPE } }), 401, 'ERR_UNAUTHENTICATED');

  const avatar = await upload(server, alice);
  const path = `/users/${alice.userId}/avatar/${avatar.id}`;
  const byBob = await call(server, 'GET', path, { token: bob.token });
  assert.equal(byBob.status, 200);
  assert.deepEqual(byBob.body, avatar);
  assert.deepEqual(ids(await call(server, 'GET', `/users/${alice.userId}/avatar`, { token: bob.token })), [avatar.id]);
  assertProblem(await call(server, 'DELETE', path, { token: bob.token }), 403, 'ERR_FORBIDDEN');
  assertProblem(await call(server, 'GET', path), 401, 'ERR_UNAUTHENTICATED');
  assertProblem(await call(server, 'GET', `/users/${alice.userId}/avatar`), 401, 'ERR_UNAUTHENTICATED');
  assertProblem(await call(server, 'GET', '/users/NOSUCHUSER/avatar', { token: bob.token }), 404, 'ERR_NOT_FOUND');
  assertProblem(await call(server, 'GET', `/users/${bob.userId}/avatar/${avatar.id}`, { token: alice.token }), 404, 'ERR_NOT_FOUND');
  assertProblem(await call(server, 'DELETE', `/users/${bob.userId}/avatar/${avatar.id}`, { token: bob.token }), 404, 'ERR_NOT_FOUND');
  assertProblem(await call(server, 'GET', `/users/${alice.userId}/avatar/NOSUCHAVATAR`, { token: alice.token }), 404, 'ERR_NOT_FOUND');
  assert.equal((await call(server, 'GET', path, { token: alice.token })).status, 200, 'still there');
});

test('the list puts the current avatar first, then the newest; an explicit sort replaces that order', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  const path = `/users/${alice.userId}/avatar`;
  const first = await upload(server, alice, png(2, 2));
  clock.advance(1000);
  const second = await upload(server, alice, jpeg(2, 2));
  clock.advance(1000);
  const third = await upload(server, alice, gif(2, 2));
  await upload(server, bob);
  const list = await call(server, 'GET', path, { token: bob.token });
  assert.equal(list.status, 200);
  assert.deepEqual(ids(list), [third.id, second.id, first.id], 'no current avatar: newest first');
  assert.deepEqual(list.body.data[0], third);
  assert.deepEqual(list.body.meta, { total: 3, limit: 20, offset: 0 });

  assert.equal((await call(server, 'PATCH', '/users', { token: alice.token, json: { avatar: second.id } })).status, 200);
  assert.deepEqual(ids(await call(server, 'GET', path, { token: alice.token })), [second.id, third.id, first.id], 'current first');
  assert.deepEqual(ids(await call(server, 'GET', `${path}?sort=createdAt&order=asc`, { token: alice.token })), [first.id, second.id, third.id]);
  assert.deepEqual(ids(await call(server, 'GET', `${path}?sort[createdAt]=DESC`, { token: alice.token })), [third.id, second.id, first.id]);
  assert.deepEqual(ids(await call(server, 'GET', `${path}?contentType=image/jpeg`, { token: alice.token })), [second.id]);
  assert.deepEqual(ids(await call(server, 'GET', `${path}?filter=contentType|ne|image/jpeg`, { token: alice.token })), [third.id, first.id]);
  const page = await call(server, 'GET', `${path}?limit=1&offset=1`, { token: alice.token });
  assert.deepEqual(ids(page), [third.id]);
  assert.equal(page.headers['link'], `<${path}?limit=1&offset=2>; rel="next", <${path}?limit=1&offset=0>; rel="prev"`);
  const unknown = await call(server, 'GET', `${path}?sort=avatar`, { token: alice.token });
  assertProblem(unknown, 400, 'ERR_BAD_QUERY');
  assertProblem(await call(server, 'GET', `${path}?current=1`, { token: alice.token }), 400, 'ERR_BAD_QUERY');

  // Uploads in the same millisecond: the later id is the newer one.
  const fourth = await upload(server, alice);
  const fifth = await upload(server, alice);
  assert.deepEqual(ids(await call(server, 'GET', path, { token: alice.token })), [second.id, fifth.id, fourth.id, third.id, first.id]);
});

test('PATCH /users {"avatar": id} makes an avatar current, null clears it, another user\'s avatar is a 400', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  const avatar = await upload(server, alice);
  const set = await call(server, 'PATCH', '/users', { token: alice.token, json: { avatar: avatar.id } });
  assert.equal(set.status, 200);
  assert.equal(set.body.avatar, avatar.id);
  assert.equal((await call(server, 'GET', `/users/${alice.userId}`, { token: bob.token })).body.avatar, avatar.id);
  assertProblem(await call(server, 'PATCH', '/users', { token: bob.token, json: { avatar: avatar.id } }), 400, 'ERR_VALIDATION', 'avatar');
  const cleared = await call(server, 'PATCH', `/users/${alice.userId}`, { token: alice.token, json: { avatar: null } });
  assert.equal(cleared.status, 200);
  assert.equal(cleared.body.avatar, null);
  assert.equal((await call(server, 'GET', `/users/${alice.userId}/avatar/${avatar.id}`, { token: alice.token })).status, 200, 'clearing deletes nothing');
});

test('DELETE answers 204; deleting the current avatar resets the user\'s avatar to null and bumps updatedAt; If-Match holds', async (t) => {
  const clock = new TestClock();
  const server = await withServer(t, { clock });
  const alice = await registerAndLogIn(server, 'alice');
  const current = await upload(server, alice);
  const other = await upload(server, alice);
  clock.advance(1000);
  const chosen = await call(server, 'PATCH', '/users', { token: alice.token, json: { avatar: current.id } });
  const chosenAt = chosen.body.updatedAt;
  clock.advance(1000);

  const removed = await call(server, 'DELETE', `/users/${alice.userId}/avatar/${other.id}`, { token: alice.token });
  assert.equal(removed.status, 204);
  assert.equal(removed.raw.length, 0);
  const untouched = await call(server, 'GET', `/users/${alice.userId}`, { token: alice.token });
  assert.deepEqual([untouched.body.avatar, untouched.body.updatedAt], [current.id, chosenAt], 'another avatar: the user is unchanged');
  assertProblem(await call(server, 'GET', other.avatar), 404, 'ERR_NOT_FOUND');

  const path = `/users/${alice.userId}/avatar/${current.id}`;
  const etag = String((await call(server, 'GET', path, { token: alice.token })).headers['etag']);
  assertProblem(await call(server, 'DELETE', path, { token: alice.token, headers: { 'if-match': '"stale"' } }), 412, 'ERR_PRECONDITION_FAILED');
  assert.equal((await call(server, 'GET', `/users/${alice.userId}`, { token: alice.token })).body.avatar, current.id, 'a failed precondition changes nothing');
  clock.advance(1000);
  const deleted = await call(server, 'DELETE', path, { token: alice.token, headers: { 'if-match': etag } });
  assert.equal(deleted.status, 204);
  const user = await call(server, 'GET', `/users/${alice.userId}`, { token: alice.token });
  assert.equal(user.body.avatar, null);
  assert.equal(user.body.updatedAt, new Date(clock.time).toISOString());
  assertProblem(await call(server, 'GET', path, { token: alice.token }), 404, 'ERR_NOT_FOUND');
  assertProblem(await call(server, 'GET', current.avatar), 404, 'ERR_NOT_FOUND');
  assertProblem(await call(server, 'DELETE', path, { token: alice.token }), 404, 'ERR_NOT_FOUND');
  const list = await call(server, 'GET', `/users/${alice.userId}/avatar`, { token: alice.token });
  assert.deepEqual([list.body.data, list.body.meta.total], [[], 0]);
});

test('OPTIONS and 405 list each avatar path\'s methods; --base-path prefixes Location and the image path', async (t) => {
  const server = await withServer(t, { basePath: '/api' });
  const cases = [
    { path: '/api/users/u1/avatar', allow: 'OPTIONS, GET, HEAD, POST' },
    { path: '/api/users/u1/avatar/a1', allow: 'OPTIONS, GET, HEAD, DELETE' },
    { path: '/api/users/u1/avatar/a1/image', allow: 'OPTIONS, GET, HEAD' },
  ];
  for (const { path, allow } of cases) {
    const options = await call(server, 'OPTIONS', path);
    assert.equal(options.status, 204, path);
    assert.equal(options.headers['allow'], allow, path);
    const wrong = await call(server, 'PUT', path, { body: '' });
    assert.equal(wrong.status, 405, path);
    assert.equal(wrong.headers['allow'], allow, path);
  }
  const alice = await registerAndLogIn(server, 'alice');
  const image = png(2, 2);
  const res = await call(server, 'POST', `/api/users/${alice.userId}/avatar`, { token: alice.token, body: multipart(avatarForm(image, ZONE)), headers: { 'content-type': MULTIPART_TYPE } });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers['location'], `/api/users/${alice.userId}/avatar/${res.body.id}`);
  assert.equal(res.body.avatar, `/api/users/${alice.userId}/avatar/${res.body.id}/image`);
  assert.deepEqual((await call(server, 'GET', res.body.avatar)).raw, image);
  assert.equal((await call(server, 'GET', `/users/${alice.userId}/avatar/${res.body.id}/image`)).status, 404);
});
