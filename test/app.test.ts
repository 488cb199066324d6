// createApp on its own (src/app.ts): the services it builds and the pipeline it hands each request to, over a socket.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createApp } from '../src/app.ts';
import { DEFAULT_CONFIG } from '../src/config.ts';

test('createApp answers through its pipeline, learns its origin from setListenUrl, and closes every connection once draining', async (t) => {
  const app = await createApp({ ...DEFAULT_CONFIG, db: ':memory:', port: 0, quiet: true });
  const server = createServer((req, res) => void app.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close();
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app.setListenUrl(url);
  assert.equal(app.services.publicOrigin(), url);
  assert.ok(app.routes.match('GET', '/chats').kind === 'found');

  const health = await fetch(`${url}/health`);
  assert.equal(health.status, 200);
  assert.match(health.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  assert.equal(health.headers.get('connection'), 'keep-alive');
  assert.deepEqual(await health.json(), { status: 'ok' });

  // A same-origin form post is a form only from the origin setListenUrl gave: the sign-up answers 303 to the login page.
  const form = await fetch(`${url}/users`, {
    method: 'POST', redirect: 'manual', body: 'login=ann&password=correct-horse-battery',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
  });
  assert.equal(form.status, 303);
  assert.equal(form.headers.get('location'), '/chats', 'the sign-up form signs in (docs/html.md)');

  app.stopAccepting();
  const last = await fetch(`${url}/health`);
  assert.equal(last.status, 200);
  assert.equal(last.headers.get('connection'), 'close');
});
