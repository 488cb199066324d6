// A real browser uses the HTML pages: log in through the form, follow links to a chat's messages, and a posted script stays text.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { chromium, type Browser, type Locator, type Page, type Response } from 'playwright-core';
import { call, registerAndLogIn, withServer } from '../http/client.ts';

// Debian's Chromium, installed by `make test`; playwright-core never downloads a browser.
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const OUTPUT = resolve('test-output/browser');
const SCRIPT_TEXT = '<script>window.__xss = 1</script><img src=x onerror="window.__xss=2">';

/** Clicks a link or button and waits for the page it leads to; answers that page's response. */
async function follow(page: Page, target: Locator): Promise<Response> {
  const [response] = await Promise.all([page.waitForNavigation(), target.click()]);
  assert.ok(response !== null, `clicking ${String(target)} loaded a page`);
  return response;
}

async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(OUTPUT, name);
  await page.screenshot({ path, fullPage: true });
  console.log(`screenshot: ${path}`);
  return path;
}

test('a person logs in through the form and reads a chat whose script message stays inert', { timeout: 45_000 }, async (t) => {
  assert.ok(
    existsSync(CHROMIUM),
    `${CHROMIUM} is missing: the browser test needs Debian's chromium (\`make test\` installs it; or apt-get install chromium)`,
  );
  const server = await withServer(t, { host: '127.0.0.1', port: 0 });
  const owner = await registerAndLogIn(server, 'alice', 'alice password');
  const friend = await registerAndLogIn(server, 'bob', 'bob password');
  const chat = await call(server, 'POST', '/chats', {
    token: owner.token,
    json: { data: { title: 'Weekend plans', members: [friend.userId] } },
  });
  assert.equal(chat.status, 201, chat.text);
  const chatId: string = chat.body.data.id;
  const texts = ['Shall we go hiking on Saturday?', SCRIPT_TEXT, 'Yes!\nI will bring sandwiches.'];
  for (const [i, text] of texts.entries()) {
    const author = i === 2 ? friend : owner;
    const posted = await call(server, 'POST', `/chats/${chatId}/messages`, { token: author.token, json: { data: { text } } });
    assert.equal(posted.status, 201, posted.text);
  }
  await mkdir(OUTPUT, { recursive: true });

  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  t.after(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  // The login form.
  const form = await page.goto(`${server.url}/session`);
  assert.equal(form?.status(), 200);
  assert.match(String(form?.headers()['content-security-policy']), /default-src 'none'/);
  await page.fill('input[name="login"]', 'alice');
  await page.fill('input[name="password"]', 'alice password');

  // POST /session answers 303 to /chats, which the browser follows with its new cookie.
  const landed = await follow(page, page.getByRole('button', { name: 'Log in' }));
  const login = landed.request().redirectedFrom();
  assert.equal(login?.method(), 'POST');
  assert.equal((await login?.response())?.status(), 303);
  assert.equal(new URL(page.url()).pathname, '/chats');
  assert.equal(landed.status(), 200);
  assert.match(await page.innerText('h1'), /Your chats/);
  assert.match(await page.innerText('main'), /Weekend plans/);
  await screenshot(page, 'chat-list.png');

  // Follow the chat's page, then its messages, by clicking links as a person would.
  await follow(page, page.locator('nav.sidebar').getByRole('link', { name: 'Weekend plans' }));
  await follow(page, page.getByRole('link', { name: 'About this chat' }));
  assert.equal(new URL(page.url()).pathname, `/chats/${chatId}`);
  assert.match(await page.innerText('h1'), /Weekend plans/);
  const messages = await follow(page, page.getByRole('link', { name: 'Messages', exact: true }).first());
  assert.equal(new URL(page.url()).pathname, `/chats/${chatId}/messages`);
  assert.match(await page.innerText('h1'), /Weekend plans/);
  assert.match(String(messages.headers()['content-security-policy']), /default-src 'none'/);

  // The script arrived as text: visible, not run, and no element was made of it.
  const text = await page.innerText('main');
  assert.ok(text.includes(SCRIPT_TEXT), 'the message shows the script as text');
  assert.ok(text.includes('Shall we go hiking on Saturday?'));
  assert.equal(await page.evaluate(() => (globalThis as { __xss?: number }).__xss), undefined);
  assert.equal(await page.locator('main img[src="x"]').count(), 0);
  const scripts = await page.locator('main script').allTextContents();
  assert.ok(scripts.every((script) => !script.includes('__xss')), 'no script made of the message');
  assert.deepEqual(pageErrors, []);
  await screenshot(page, 'messages.png');
});
