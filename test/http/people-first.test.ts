// People first (docs/html.md): the icons and the manifest, titles, message text in the Markdown subset, reaction
// labels, and search results that name their chat, over HTTP on either backend.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inflateSync } from 'node:zlib';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, withServer, type TestResponse } from './client.ts';
import { createChat, postMessage } from './chat-fixtures.ts';
import { crc32 } from '../../src/representations/png-image.ts';

const HTML = { accept: 'text/html' };

/** A PNG's size and RGBA pixels, every chunk's CRC checked (the encoder writes filter type 0 on every row). */
function decodePng(bytes: Buffer): { width: number; height: number; pixel: (x: number, y: number) => number[] } {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks = new Map<string, Buffer[]>();
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    assert.equal(bytes.readUInt32BE(at + 8 + length), crc32(bytes.subarray(at + 4, at + 8 + length)), `${type} CRC`);
    chunks.set(type, [...chunks.get(type) ?? [], bytes.subarray(at + 8, at + 8 + length)]);
    at += 12 + length;
  }
  const header = chunks.get('IHDR')![0]!;
  const [width, height] = [header.readUInt32BE(0), header.readUInt32BE(4)];
  assert.deepEqual([...header.subarray(8)], [8, 6, 0, 0, 0], '8-bit RGBA');
  assert.ok(chunks.has('IEND'));
  const rows = inflateSync(Buffer.concat(chunks.get('IDAT')!));
  assert.equal(rows.length, height * (width * 4 + 1));
  const pixel = (x: number, y: number): number[] => [...rows.subarray(y * (width * 4 + 1) + 1 + x * 4, y * (width * 4 + 1) + 5 + x * 4)];
  return { width, height, pixel };
}

function assertCachedFile(res: TestResponse, contentType: string): void {
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], contentType);
  assert.equal(res.headers['cache-control'], 'public, max-age=86400');
  assert.match(String(res.headers['etag']), /^"[^"]+"$/);
  assert.equal(res.headers['content-security-policy'], "default-src 'none'; sandbox");
}

test('the icons: a favicon.ico of PNGs, an SVG, and 192 and 512 px PNGs drawn by the server; each cached and tagged', async (t) => {
  const server = await withServer(t);
  const favicon = await call(server, 'GET', '/favicon.ico');
  assertCachedFile(favicon, 'image/x-icon');
  assert.deepEqual([favicon.raw.readUInt16LE(0), favicon.raw.readUInt16LE(2), favicon.raw.readUInt16LE(4)], [0, 1, 3]);
  for (const [index, size] of [16, 32, 48].entries()) {
    const entry = 6 + 16 * index;
    assert.deepEqual([favicon.raw[entry], favicon.raw[entry + 1]], [size, size]);
    const image = favicon.raw.subarray(favicon.raw.readUInt32LE(entry + 12), favicon.raw.readUInt32LE(entry + 12) + favicon.raw.readUInt32LE(entry + 8));
    assert.equal(decodePng(image).width, size);
  }
  assert.equal((await call(server, 'GET', '/favicon.ico', { headers: { 'if-none-match': String(favicon.headers['etag']) } })).status, 304);
  const svg = await call(server, 'GET', '/icon.svg');
  assertCachedFile(svg, 'image/svg+xml');
  assert.match(svg.text, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 512 512"><rect x="0" y="0" width="512" height="512" rx="96" fill="#0b57d0"\/>/);
  for (const size of [192, 512]) {
    const res = await call(server, 'GET', `/icon-${size}.png`);
    assertCachedFile(res, 'image/png');
    const png = decodePng(res.raw);
    assert.deepEqual([png.width, png.height], [size, size]);
    const at = (units: number): number => Math.floor((units * size) / 512);
    assert.deepEqual(png.pixel(0, 0)[3], 0, 'the rounded corner is transparent');
    assert.deepEqual(png.pixel(at(40), at(256)), [0x0b, 0x57, 0xd0, 255], 'the theme blue');
    assert.deepEqual(png.pixel(at(256), at(160)), [255, 255, 255, 255], 'the white bubble');
    assert.deepEqual(png.pixel(at(256), at(234)), [0x0b, 0x57, 0xd0, 255], 'a dot');
    const head = await call(server, 'HEAD', `/icon-${size}.png`);
    assert.deepEqual([head.status, head.raw.length, head.headers['content-length']], [200, 0, String(res.raw.length)]);
  }
});

test('the manifest names the app, its icons and colours, under the base path; every page links it and its icons', async (t) => {
  const server = await withServer(t, { basePath: '/api' });
  const res = await call(server, 'GET', '/api/manifest.webmanifest');
  assertCachedFile(res, 'application/manifest+json');
  assert.deepEqual(JSON.parse(res.text), {
    id: '/api/', name: 'Chat', short_name: 'Chat', description: 'Group chats and direct messages for a team, live in the browser.',
    start_url: '/api/', scope: '/api/', display: 'standalone', theme_color: '#0b57d0', background_color: '#ffffff',
    icons: [
      { src: '/api/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/api/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/api/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
  });
  for (const path of ['/api/favicon.ico', '/api/icon.svg', '/api/icon-192.png', '/api/icon-512.png']) assert.equal((await call(server, 'GET', path)).status, 200, path);
  assert.equal((await call(server, 'GET', '/favicon.ico')).status, 404, 'only under the mount point');
  const page = await call(server, 'GET', '/api/session', { headers: HTML });
  assert.match(page.text, /<title>Log in · Chat<\/title>\n<meta name="theme-color" content="#0b57d0">\n<link rel="icon" href="\/api\/favicon.ico" sizes="16x16 32x32 48x48">\n<link rel="icon" href="\/api\/icon.svg" type="image\/svg\+xml">\n<link rel="apple-touch-icon" href="\/api\/icon-192.png">\n<link rel="manifest" href="\/api\/manifest.webmanifest">\n<style>/);
  assert.match(String(page.headers['content-security-policy']), /; manifest-src 'self'; /);
  const problem = await call(server, 'GET', '/api/chats', { headers: HTML });
  assert.match(problem.text, /<title>401 Authentication required · Chat<\/title>/);
});

async function chatPage(server: RunningServer, token: string, chatId: string): Promise<string> {
  const res = await call(server, 'GET', `/chats/${chatId}/messages`, { token, headers: HTML });
  assert.equal(res.status, 200);
  return res.text;
}

test('message text in the Markdown subset with mentions inside it, reactions labelled by name, search naming the chat', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const bob = await registerAndLogIn(server, 'bob');
  const chat = await createChat(server, alice, { title: 'Trip <planning>', members: [bob.userId] });
  const text = '**Plan** for *@bob*: `npm i` <b>\n- tickets https://rail.example/x?a=1&b=2.\n- javascript:alert(1)\n\n> quoted';
  const message = await postMessage(server, alice, chat.id, { text });
  const single = await postMessage(server, bob, chat.id, { text: 'just _one_ line' });
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/messages/${single.id}/reactions/${encodeURIComponent('👍')}`, { token: alice.token })).status, 201);
  assert.equal((await call(server, 'PUT', `/chats/${chat.id}/messages/${single.id}/reactions/${encodeURIComponent('🫠')}`, { token: bob.token })).status, 201);
  const page = await chatPage(server, bob.token, chat.id);
  assert.ok(page.includes('<div class="text" dir="auto"><p><strong>Plan</strong> for <em><mark class="mention mine"><strong>@bob</strong></mark></em>: <code>npm i</code> &lt;b&gt;</p>' +
    '<ul><li>tickets <a href="https://rail.example/x?a=1&amp;b=2" rel="noopener nofollow ugc">https://rail.example/x?a=1&amp;b=2</a>.</li><li>javascript:alert(1)</li></ul>' +
    '<blockquote><p>quoted</p></blockquote></div>'), 'the Markdown subset, escaped');
  assert.ok(page.includes('<p class="text" dir="auto">just <em>one</em> line</p>'), 'one paragraph stays a paragraph');
  const aliceView = await chatPage(server, alice.token, chat.id);
  assert.match(aliceView, /aria-pressed="true" title="alice" aria-label="thumbs up, 1, you reacted">👍 1<\/button>/);
  assert.match(aliceView, /aria-pressed="false" title="bob" aria-label="U\+1FAE0, 1">🫠 1<\/button>/);
  const stored = await call(server, 'GET', `/chats/${chat.id}/messages/${message.id}`, { token: bob.token });
  assert.equal(stored.body.data.text, text, 'the stored text stays plain');

  const direct = await call(server, 'POST', '/chats', { token: alice.token, json: { data: { kind: 'direct', members: [bob.userId] } } });
  assert.equal(direct.status, 201);
  await postMessage(server, bob, direct.body.data.id, { text: 'tickets booked' });
  const search = await call(server, 'GET', '/search?q=tickets', { token: alice.token, headers: HTML });
  assert.equal(search.status, 200);
  assert.match(search.text, new RegExp(`Message by .*bob.* in <a href="/chats/${direct.body.data.id}/messages">bob</a>`));
  assert.match(search.text, new RegExp(`Message by .*alice.* in <a href="/chats/${chat.id}/messages">Trip &lt;planning&gt;</a>`));
  assert.equal(search.text.match(/role="search"/g)?.length, 1, 'one search box on the search page');
  assert.match(search.text, /<title>Search: tickets · Chat<\/title>/);
});

test('a form\'s line breaks (CR LF, as browsers send them) arrive as the line feeds typed, urlencoded and multipart', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice');
  const chat = await createChat(server, alice, { title: 'Lines' });
  const signIn = await call(server, 'POST', '/session', {
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url }, body: 'login=alice&password=correct+horse+battery',
  });
  const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
  const form = { origin: server.url, cookie, accept: 'text/html' };
  const unchecked = 'an HTML form post (docs/protocol.md §7.3) is outside the OpenAPI document, which describes the JSON exchange';
  const posted = await call(server, 'POST', `/chats/${chat.id}/messages`, { headers: { ...form, 'content-type': 'application/x-www-form-urlencoded' }, body: 'text=-+one%0D%0A-+two', unchecked });
  assert.equal(posted.status, 303, posted.text);
  const boundary = 'b0undary';
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n> three\r\n> four\r\n--${boundary}--\r\n`;
  const multipart = await call(server, 'POST', `/chats/${chat.id}/messages`, { headers: { ...form, 'content-type': `multipart/form-data; boundary=${boundary}` }, body, unchecked });
  assert.equal(multipart.status, 303, multipart.text);
  const texts = (await call(server, 'GET', `/chats/${chat.id}/messages`, { token: alice.token })).body.data.map((message: { text: string }) => message.text);
  assert.deepEqual(texts, ['- one\n- two', '> three\n> four']);
});
