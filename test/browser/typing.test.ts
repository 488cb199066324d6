// Typing and presence in the browser (docs/html.md): two people on the same chat page; one types in the composer, the
// other sees "alice is typing…" under the list, gone when the message arrives; presence dots move as people come and go.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { call, registerAndLogIn, TestClock, withServer } from '../http/client.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const OUTPUT = resolve('test-output/browser');

async function logIn(browser: Browser, url: string, login: string, password: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  await page.goto(`${url}/session`);
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', password);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Log in' }).click()]);
  return page;
}

test('one person types, the other sees "alice is typing…" under the messages, until her message arrives', { timeout: 60_000 }, async (t) => {
  const server = await withServer(t, { host: '127.0.0.1', port: 0 });
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const bob = await registerAndLogIn(server, 'bob', 'bob password');
  const chat = await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Typing', members: [bob.userId] } } });
  const chatId: string = chat.body.data.id;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  t.after(() => browser.close());
  const alicePage = await logIn(browser, server.url, 'alice', 'alice password');
  const bobPage = await logIn(browser, server.url, 'bob', 'bob password');
  const errors: string[] = [];
  for (const page of [alicePage, bobPage]) page.on('pageerror', (error) => errors.push(error.message));
  const messagesUrl = `${server.url}/chats/${chatId}/messages`;
  await bobPage.goto(messagesUrl);
  const events = server.app.services.events;
  for (let tries = 0; tries < 2000 && events.streamCount(bob.userId) < 1; tries++) await new Promise((resolve) => setTimeout(resolve, 5));
  await alicePage.goto(messagesUrl);
  for (let tries = 0; tries < 2000 && events.streamCount(alice.userId) < 1; tries++) await new Promise((resolve) => setTimeout(resolve, 5));

  const indicator = bobPage.locator('p.typing');
  await indicator.waitFor({ state: 'attached' });
  assert.equal(await indicator.innerText(), '');
  await alicePage.locator('textarea#compose-text').pressSequentially('Hello Bob', { delay: 20 });
  await indicator.filter({ hasText: 'alice is typing…' }).waitFor();
  assert.equal(await indicator.getAttribute('aria-live'), 'polite');
  assert.equal(await alicePage.locator('p.typing').innerText(), '', 'never one\'s own typing');
  await mkdir(OUTPUT, { recursive: true });
  await bobPage.screenshot({ path: join(OUTPUT, 'typing.png'), fullPage: true });

  await Promise.all([alicePage.waitForNavigation(), alicePage.getByRole('button', { name: 'Send' }).click()]);
  await bobPage.locator('ol.messages > li p.text', { hasText: 'Hello Bob' }).waitFor();
  await bobPage.waitForFunction(() => (globalThis as any).document.querySelector('p.typing')?.textContent === '');
  assert.deepEqual(errors, []);
});

test('presence dots: shown at page load, moved live as someone goes offline and comes back', { timeout: 60_000 }, async (t) => {
  const clock = new TestClock(Date.now());
  const server = await withServer(t, { host: '127.0.0.1', port: 0, clock, eventTimings: { presenceSweepMs: 20 } });
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const bob = await registerAndLogIn(server, 'bob', 'bob password');
  const chat = await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Dots', members: [bob.userId] } } });
  const chatId: string = chat.body.data.id;
  await call(server, 'POST', `/chats/${chatId}/messages`, { token: bob.token, json: { data: { text: 'Bob was here' } } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  t.after(() => browser.close());
  const alicePage = await logIn(browser, server.url, 'alice', 'alice password');
  const errors: string[] = [];
  alicePage.on('pageerror', (error) => errors.push(error.message));
  await alicePage.goto(`${server.url}/chats/${chatId}/messages`);
  const dot = alicePage.locator(`ol.messages [data-presence-of="${bob.userId}"]`).first();
  assert.equal(await dot.getAttribute('data-presence'), 'online', 'bob posted a moment ago');
  assert.equal(await dot.getAttribute('role'), 'img');
  assert.equal(await dot.getAttribute('aria-label'), 'online');
  const events = server.app.services.events;
  for (let tries = 0; tries < 2000 && events.streamCount(alice.userId) < 1; tries++) await new Promise((resolve) => setTimeout(resolve, 5));
  clock.advance(31 * 60_000);
  await alicePage.locator(`ol.messages [data-presence-of="${bob.userId}"][data-presence="offline"][aria-label="offline"]`).first().waitFor();
  await call(server, 'GET', '/chats', { token: bob.token });
  await alicePage.locator(`ol.messages [data-presence-of="${bob.userId}"][data-presence="online"]`).first().waitFor();
  assert.deepEqual(errors, []);
});
