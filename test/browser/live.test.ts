// Live HTML (docs/protocol.md §9.9): two people in two browsers on the same chat page; what one posts, edits or deletes
// appears on the other's page without a reload. With scripts off the page still shows it all, by reload.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { call, registerAndLogIn, withServer } from '../http/client.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const OUTPUT = resolve('test-output/browser');

/** A browser context logged in through the HTML login form, as a person would. */
async function logIn(browser: Browser, url: string, login: string, password: string, javaScriptEnabled = true): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  await page.goto(`${url}/session`);
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', password);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Log in' }).click()]);
  assert.equal(new URL(page.url()).pathname, '/chats');
  return { context, page };
}

/** A write from inside the page, with its cookie and its own Origin, as a form or script of this site would make. */
function writeFromPage(page: Page, method: string, path: string, body?: unknown): Promise<number> {
  return page.evaluate(async ({ method, path, body }) => {
    const res = await fetch(path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return res.status;
  }, { method, path, body });
}

test('a message posted in one browser appears in the other\'s open chat page, then its edit and its deletion', { timeout: 60_000 }, async (t) => {
  const server = await withServer(t, { host: '127.0.0.1', port: 0 });
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const bob = await registerAndLogIn(server, 'bob', 'bob password');
  const chat = await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Live', members: [bob.userId] } } });
  const chatId: string = chat.body.data.id;
  await call(server, 'POST', `/chats/${chatId}/messages`, { token: alice.token, json: { data: { text: 'Hello before anyone looked' } } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  t.after(() => browser.close());
  const alicePage = (await logIn(browser, server.url, 'alice', 'alice password')).page;
  const bobPage = (await logIn(browser, server.url, 'bob', 'bob password')).page;
  const errors: string[] = [];
  for (const page of [alicePage, bobPage]) page.on('pageerror', (error) => errors.push(error.message));
  const messagesUrl = `${server.url}/chats/${chatId}/messages`;
  // Alice's page is open and listening before Bob writes: wait for its stream to be open on the server.
  await alicePage.goto(messagesUrl);
  await bobPage.goto(messagesUrl);
  const events = server.app.services.events;
  for (let tries = 0; tries < 2000 && events.streamCount() < 2; tries++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(events.streamCount(), 2, 'both pages opened their event stream');

  const text = 'Posted by Bob <b>not bold</b>';
  assert.equal(await writeFromPage(bobPage, 'POST', `/chats/${chatId}/messages`, { data: { text } }), 201);
  const item = alicePage.locator('ol.messages > li', { hasText: 'Posted by Bob' });
  await item.waitFor();
  assert.equal(await item.locator('p.text').innerText(), text, 'shown as text, not markup');
  assert.equal(await alicePage.locator('ol.messages b').count(), 0);
  const id = (await item.getAttribute('data-message-id'))!;
  assert.equal(await item.locator(`a[href="/users/${bob.userId}"]`).innerText(), 'bob', 'the author by login');
  await mkdir(OUTPUT, { recursive: true });
  await alicePage.screenshot({ path: join(OUTPUT, 'live-message.png'), fullPage: true });

  assert.equal(await writeFromPage(bobPage, 'PATCH', `/chats/${chatId}/messages/${id}`, { data: { text: 'Edited by Bob' } }), 200);
  await alicePage.locator(`#m-${id} p.text`, { hasText: 'Edited by Bob' }).waitFor();
  assert.equal(await writeFromPage(bobPage, 'DELETE', `/chats/${chatId}/messages/${id}`), 204);
  await alicePage.locator(`#m-${id}`).waitFor({ state: 'detached' });
  assert.equal(await alicePage.locator('ol.messages > li.message').count(), 1, 'only the first message is left');
  assert.deepEqual(errors, []);
});

test('with scripts off the chat page has no live updates but shows new messages on reload', { timeout: 60_000 }, async (t) => {
  const server = await withServer(t, { host: '127.0.0.1', port: 0 });
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const chat = await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Static' } } });
  const chatId: string = chat.body.data.id;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  t.after(() => browser.close());
  const { page } = await logIn(browser, server.url, 'alice', 'alice password', false);
  await page.goto(`${server.url}/chats/${chatId}/messages`);
  assert.equal(await page.locator('ol.messages > li').count(), 0);
  await call(server, 'POST', `/chats/${chatId}/messages`, { token: alice.token, json: { data: { text: 'Seen after reload' } } });
  assert.equal(server.app.services.events.streamCount(), 0, 'no script, no stream');
  await page.reload();
  assert.equal(await page.locator('ol.messages > li p.text').innerText(), 'Seen after reload');
});
