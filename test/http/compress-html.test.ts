// Pages for people go out gzipped when the browser takes gzip (docs/performance.md, "The chat screen in the browser").
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, withServer } from './client.ts';

interface Raw { status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }

/** A GET whose body stays as it came over the wire (fetch would unzip it). */
function getRaw(server: RunningServer, path: string, headers: Record<string, string>, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('an HTML page is gzipped for a browser that takes gzip, with its own ETag; JSON and browsers without gzip get it as is', async (t) => {
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const chat = await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Zipped' } } });
  const path = `/chats/${chat.body.data.id}/messages`;
  for (let i = 0; i < 5; i++) await call(server, 'POST', path, { token: alice.token, json: { data: { text: `Message ${i}` } } });
  const html = { accept: 'text/html', authorization: `Bearer ${alice.token}` };
  const plain = await getRaw(server, path, html);
  const zipped = await getRaw(server, path, { ...html, 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(zipped.status, 200);
  assert.equal(zipped.headers['content-encoding'], 'gzip');
  assert.equal(zipped.headers['vary'], 'Accept, Accept-Language, Accept-Encoding');
  assert.equal(Number(zipped.headers['content-length']), zipped.bytes.length);
  assert.equal(gunzipSync(zipped.bytes).toString('utf8'), plain.bytes.toString('utf8'));
  assert.ok(zipped.bytes.length < plain.bytes.length / 3, `${zipped.bytes.length} of ${plain.bytes.length} bytes`);
  assert.equal(zipped.headers['etag'], String(plain.headers['etag']).replace(/"$/, '-gzip"'));
  const again = await getRaw(server, path, { ...html, 'accept-encoding': 'gzip', 'if-none-match': String(zipped.headers['etag']) });
  assert.equal(again.status, 304);
  assert.equal(again.bytes.length, 0);
  const head = await getRaw(server, path, { ...html, 'accept-encoding': 'gzip' }, 'HEAD');
  assert.equal(head.headers['content-length'], zipped.headers['content-length']);
  assert.equal((await getRaw(server, path, { ...html, 'accept-encoding': 'gzip;q=0, identity' })).headers['content-encoding'], undefined);
  // gzip rated for itself wins over `*`, whichever comes first; a malformed q counts for nothing (RFC 9110 §12.5.3).
  assert.equal((await getRaw(server, path, { ...html, 'accept-encoding': '*;q=0, gzip' })).headers['content-encoding'], 'gzip');
  assert.equal((await getRaw(server, path, { ...html, 'accept-encoding': '*, gzip;q=0' })).headers['content-encoding'], undefined);
  assert.equal((await getRaw(server, path, { ...html, 'accept-encoding': 'gzip;q=2' })).headers['content-encoding'], undefined);
  const json = await getRaw(server, path, { authorization: `Bearer ${alice.token}`, 'accept-encoding': 'gzip' });
  assert.equal(json.headers['content-encoding'], undefined);
  assert.equal(json.headers['vary'], 'Accept');
});
