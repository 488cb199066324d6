// A real browser: a page served on another loopback port logs in and writes with fetch(credentials: 'include')
// because its origin is in --cors-origins; a page from an origin not listed can neither read nor write.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { chromium } from 'playwright-core';
import { call, registerAndLogIn, withServer } from '../http/client.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// The pages' scripts are plain JavaScript text: what a page of another origin would run (and not code the
// test's TypeScript transform could add helpers to).
const ALLOWED_PAGE_SCRIPT = `
  const json = { 'Content-Type': 'application/json' };
  // A JSON POST is not a "simple" request: the browser sends a preflight first.
  const login = await fetch(API + '/session', { method: 'POST', credentials: 'include', headers: json, body: JSON.stringify({ login: 'alice', password: 'alice password' }) });
  const loggedIn = await login.json();
  // No Authorization header: only the session cookie the login set authenticates this write.
  const created = await fetch(API + '/chats', { method: 'POST', credentials: 'include', headers: json, body: JSON.stringify({ data: { title: 'Written from another origin' } }) });
  const session = await fetch(API + '/session', { credentials: 'include' });
  return {
    loginStatus: login.status,
    userId: loggedIn.userId,
    createdStatus: created.status,
    location: created.headers.get('Location'),
    etag: created.headers.get('ETag'),
    requestId: created.headers.get('X-Request-Id'),
    sessionStatus: session.status,
  };`;

const FOREIGN_PAGE_SCRIPT = `
  const outcome = (request) => request.then((res) => 'status ' + res.status, (error) => error.name);
  return {
    read: await outcome(fetch(API + '/session', { credentials: 'include' })),
    jsonWrite: await outcome(fetch(API + '/chats', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: '{"data":{"title":"Forged"}}' })),
    // A "simple" text/plain POST goes out without a preflight; the server's Origin check refuses it.
    simpleWrite: await outcome(fetch(API + '/chats', { method: 'POST', credentials: 'include', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: 'title=Forged' })),
  };`;

function pageScript(body: string, apiUrl: string): string {
  return `(async () => { const API = ${JSON.stringify(apiUrl)};${body}\n})()`;
}

/** A page server on its own port: another origin (same host, another port) than the API. */
async function servePage(t: TestContext): Promise<string> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>A chat client</title><h1>A chat client on another origin</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('a page on an allowed origin logs in and writes with credentials; a page on another origin cannot', { timeout: 45_000 }, async (t) => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: the browser test needs Debian's chromium`);
  const allowedPage = await servePage(t);
  const foreignPage = await servePage(t);
  const api = await withServer(t, { host: '127.0.0.1', corsOrigins: [allowedPage], metricsPort: 0 });
  const alice = await registerAndLogIn(api, 'alice', 'alice password');

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  t.after(() => browser.close());
  const context = await browser.newContext();
  const page = await context.newPage();
  assert.equal((await page.goto(allowedPage))?.status(), 200);

  const seen = await page.evaluate(pageScript(ALLOWED_PAGE_SCRIPT, api.url)) as Record<string, unknown>;
  assert.equal(seen.loginStatus, 201);
  assert.equal(seen.userId, alice.userId);
  assert.equal(seen.createdStatus, 201, 'the cookie write from the allowed origin passed the Origin check');
  assert.match(String(seen.location), /^\/chats\/[0-9A-Z]{26}$/, 'Location is exposed to the script');
  assert.match(String(seen.etag), /^"/, 'ETag is exposed to the script');
  assert.ok(seen.requestId);
  assert.equal(seen.sessionStatus, 200);
  const chat = await call(api, 'GET', String(seen.location), { token: alice.token });
  assert.equal(chat.body.data.title, 'Written from another origin');
  const preflights = api.app.services.metrics.requests.get('OPTIONS', '/chats', '204');
  assert.ok(preflights >= 1, 'the browser sent a preflight for the JSON POST');

  // The same browser, with the cookie, on a page whose origin is not listed.
  assert.equal((await page.goto(foreignPage))?.status(), 200);
  const foreign = await page.evaluate(pageScript(FOREIGN_PAGE_SCRIPT, api.url));
  assert.deepEqual(foreign, { read: 'TypeError', jsonWrite: 'TypeError', simpleWrite: 'status 0' });
  const metrics = api.app.services.metrics;
  const refused = () => metrics.requests.get('POST', '/chats', '403');
  while (refused() === 0) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(refused(), 1, 'the simple cross-origin write reached the server and was refused 403');
  assert.equal(metrics.requests.get('POST', '/chats', '201'), 1, 'only the allowed origin\'s chat was created');
  const chats = await call(api, 'GET', '/chats', { token: alice.token });
  assert.deepEqual(chats.body.data.map((item: { title: string }) => item.title), ['Written from another origin']);
});
