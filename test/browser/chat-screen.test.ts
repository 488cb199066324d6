// The chat screen in Chromium (docs/html.md, "The chat screen"), two people, with and without scripts: the sidebar by last
// activity with its badges, the conversation opening at its newest message with the composer in the viewport (1280x800
// and 360x740, light and dark), reply, react with any emoji, edit, mark unread and delete from a message's menu.
import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, withServer } from '../http/client.ts';
import { assertAccessible, assertNoHorizontalOverflow, follow, launch, OUTPUT, type Person } from './people.ts';

/** `UPDATE_SCREENSHOTS=1` also copies the screenshots into docs/screenshots/ (the ones the documentation shows). */
const DOCS_SCREENSHOTS = resolve('docs/screenshots');

async function seed(server: RunningServer) {
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const bob = await registerAndLogIn(server, 'bob', 'bob password');
  const post = async (token: string, chatId: string, text: string) => (await call(server, 'POST', `/chats/${chatId}/messages`, { token, json: { data: { text } } })).body.data;
  const older = (await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Book club', members: [bob.userId] } } })).body.data;
  await post(bob.token, older.id, 'Chapter three for next week');
  const plans = (await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Weekend plans', members: [bob.userId] } } })).body.data;
  const direct = (await call(server, 'POST', '/chats', { token: bob.token, json: { data: { kind: 'direct', members: [alice.userId] } } })).body.data;
  await post(bob.token, direct.id, 'Hi Alice, a word about Saturday');
  for (let index = 1; index <= 24; index++) await post(index % 3 === 0 ? bob.token : alice.token, plans.id, `Plan number ${index}: ${'a walk by the river '.repeat(index % 4)}`);
  const last = await post(alice.token, plans.id, 'Shall we go hiking on Saturday?');
  const answer = await post(bob.token, plans.id, 'Yes! @alice bring the map');
  return { alice, bob, plans, direct, older, last, answer };
}

async function open(browser: Awaited<ReturnType<typeof launch>>, url: string, login: string, scripts: boolean, width = 1280, height = 800, scheme: 'light' | 'dark' = 'light'): Promise<Person> {
  const context = await browser.newContext({ javaScriptEnabled: scripts, viewport: { width, height }, colorScheme: scheme });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${url}/session`);
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', `${login} password`);
  await follow(page, page.getByRole('button', { name: 'Log in' }));
  return { context, page, problems };
}

/** The element's box lies inside the window (and inside the scroll box it is in). */
async function assertInView(page: Page, locator: Locator, what: string): Promise<void> {
  const inside = await locator.evaluate((element: any) => {
    const box = element.getBoundingClientRect();
    const view = { top: 0, bottom: (globalThis as any).innerHeight };
    const scroller = element.closest('.scroller');
    const frame = scroller ? scroller.getBoundingClientRect() : view;
    return box.height > 0 && box.top >= Math.max(view.top, frame.top) - 1 && box.bottom <= Math.min(view.bottom, frame.bottom) + 1;
  });
  assert.ok(inside, `${what} is in the viewport`);
}

/** The layout rules of the chat screen at this size: nothing sideways, composer and newest message in view, the page itself not scrolling. */
async function assertChatLayout(page: Page, newest: string, what: string): Promise<void> {
  await assertNoHorizontalOverflow(page, what);
  await assertInView(page, page.locator('#compose-text'), `${what}: the composer`);
  await assertInView(page, page.locator('section.composer').getByRole('button', { name: 'Send' }), `${what}: the Send button`);
  await assertInView(page, page.locator(`#m-${newest}`), `${what}: the newest message`);
  const scrolls = await page.evaluate(() => (globalThis as any).document.documentElement.scrollHeight - (globalThis as any).innerHeight);
  assert.ok(scrolls <= 1, `${what}: only the messages scroll, not the page (${scrolls} px)`);
}

async function shoot(page: Page, name: string): Promise<void> {
  await mkdir(OUTPUT, { recursive: true });
  await page.screenshot({ path: join(OUTPUT, name) });
  if (process.env['UPDATE_SCREENSHOTS'] === '1' && !name.includes('-static')) {
    await mkdir(DOCS_SCREENSHOTS, { recursive: true });
    await copyFile(join(OUTPUT, name), join(DOCS_SCREENSHOTS, name));
  }
}

/** Opens a message's actions menu (a <details>) and returns it. */
async function menuOf(page: Page, messageId: string): Promise<Locator> {
  const item = page.locator(`#m-${messageId}`);
  await item.locator('details.menu > summary').click();
  return item.locator('.menu-items');
}

function screen(scripts: boolean) {
  return async (t: TestContext) => {
    const server = await withServer(t, { host: '127.0.0.1', port: 0 });
    const { bob, plans, direct, older, last, answer } = await seed(server);
    const browser = await launch();
    t.after(() => browser.close());
    // Light with scripts and dark without here; the phone below the other way round.
    const alice = await open(browser, server.url, 'alice', scripts, 1280, 800, scripts ? 'light' : 'dark');
    const { page } = alice;
    const suffix = scripts ? '' : '-static';

    // The chats: the sidebar, most recently active first, with the unread and mention badges; the DM with a presence dot.
    const entries = page.locator('nav.sidebar li[data-chat-id]');
    assert.deepEqual(await entries.evaluateAll((items: any[]) => items.map((item) => item.dataset.chatId)), [plans.id, older.id, direct.id]);
    assert.match(await page.locator(`nav.sidebar li[data-chat-id="${plans.id}"]`).innerText(), /Weekend plans\s+1 unread\s+1 mention/);
    assert.equal(await page.locator(`nav.sidebar li[data-chat-id="${direct.id}"] [data-presence-of="${bob.userId}"]`).count(), 1);
    await assertNoHorizontalOverflow(page, 'the chats at 1280 px');
    if (scripts) await assertAccessible(page, 'the chats at 1280 px');

    // The chat opens at its newest message, the composer at the bottom of the viewport; a "New messages" line at the marker.
    await follow(page, page.locator('nav.sidebar').getByRole('link', { name: 'Weekend plans' }));
    const newest = await page.locator('ol.messages > li.message').last().getAttribute('data-message-id');
    await assertChatLayout(page, newest!, 'the chat at 1280x800');
    assert.equal(await page.locator('ol.messages > li.new-line').count(), 1);
    assert.ok(await page.locator('ol.messages > li.message.more').count() > 0, 'messages of one author within a minute are grouped');
    assert.equal(await page.locator('ol.messages > li.day').count(), 1, 'one day, one separator');
    assert.equal(await page.locator(`nav.sidebar li[data-chat-id="${plans.id}"] a[aria-current="page"]`).count(), 1);
    if (scripts) {
      await assertAccessible(page, 'the chat at 1280 px');
      await page.emulateMedia({ colorScheme: 'dark' });
      await assertAccessible(page, 'the chat at 1280 px, dark');
      await page.emulateMedia({ colorScheme: 'light' });
    }
    await shoot(page, `chat-1280${suffix}.png`);

    // Reply from the menu: the quote shows above the composer; the reply lands at the bottom, quoting.
    await follow(page, (await menuOf(page, last.id)).getByRole('link', { name: 'Reply' }));
    assert.equal(new URL(page.url()).searchParams.get('reply'), last.id);
    assert.match(await page.locator('.composer .replying').innerText(), /Replying to\s+alice.*Shall we go hiking/s);
    await page.locator('#compose-text').fill('Or a bike ride?');
    await follow(page, page.locator('section.composer').getByRole('button', { name: 'Send' }));
    const reply = page.locator('ol.messages > li.message').last();
    assert.match(await reply.innerText(), /In reply to\s+alice\s*:\s+Shall we go hiking on Saturday\?\s+Or a bike ride\?/);
    const replyId = (await reply.getAttribute('data-message-id'))!;
    assert.equal(new URL(page.url()).hash, `#m-${replyId}`);
    await assertChatLayout(page, replyId, 'the chat after a reply');

    // React with any emoji typed into the menu's field, then with one of the eight.
    const menu = await menuOf(page, last.id);
    if (scripts) await assertAccessible(page, 'the chat with a message menu open');
    await shoot(page, `chat-menu-1280${suffix}.png`);
    await menu.getByLabel('Any emoji').fill('🦄');
    await follow(page, menu.getByRole('button', { name: 'React', exact: true }));
    await (await menuOf(page, last.id)).getByRole('button', { name: 'React with party popper' }).click();
    await page.locator(`#m-${last.id} ul.reactions button`, { hasText: '🎉' }).waitFor();
    assert.match(await page.locator(`#m-${last.id} ul.reactions`).innerText(), /🦄 1\s+🎉 1/);

    // Edit in place, then mark unread from Bob's message, then delete the reply.
    await follow(page, (await menuOf(page, last.id)).getByRole('link', { name: 'Edit' }));
    await page.getByLabel('Edit the message').fill('Shall we go hiking on Sunday?');
    await follow(page, page.locator(`#m-${last.id}`).getByRole('button', { name: 'Save' }));
    assert.match(await page.locator(`#m-${last.id}`).innerText(), /Sunday\?/);
    assert.equal(new URL(page.url()).search, '');
    await follow(page, (await menuOf(page, replyId)).getByRole('button', { name: 'Delete' }));
    assert.equal(await page.locator(`#m-${replyId}`).count(), 0);
    assert.equal(await page.locator('li.new-line').count(), 0, 'her reply moved her marker past everything');
    await follow(page, (await menuOf(page, answer.id)).getByRole('button', { name: 'Mark unread from here' }));
    assert.equal(new URL(page.url()).hash, `#m-${answer.id}`);
    assert.equal(await page.locator(`li.new-line + li#m-${answer.id}`).count(), 1, 'the New messages line moved up to it');
    assert.match(await page.locator('.chat-nav').innerText(), /1 unread/);

    // A phone: the chat alone, with a link back to the chats, which are a screen of their own.
    const phone = await open(browser, server.url, 'alice', scripts, 360, 740, scripts ? 'dark' : 'light');
    await assertNoHorizontalOverflow(phone.page, 'the chats at 360 px');
    assert.ok(await phone.page.locator('nav.sidebar').isVisible(), 'on a phone, /chats is the sidebar');
    await shoot(phone.page, `sidebar-360${suffix}.png`);
    await follow(phone.page, phone.page.locator('nav.sidebar').getByRole('link', { name: 'Weekend plans' }));
    await assertChatLayout(phone.page, last.id, 'the chat at 360x740');
    assert.equal(await phone.page.locator('nav.sidebar').isVisible(), false, 'on a phone, the chat hides the sidebar');
    assert.ok(await phone.page.getByRole('link', { name: 'All chats' }).isVisible());
    await shoot(phone.page, `chat-360${suffix}.png`);
    if (scripts) {
      await phone.page.setViewportSize({ width: 320, height: 640 });
      await assertAccessible(phone.page, 'the chat at 320 px, dark');
      await phone.page.emulateMedia({ colorScheme: 'light' });
      await assertAccessible(phone.page, 'the chat at 320 px, light');
      await assertChatLayout(phone.page, last.id, 'the chat at 320x640, dark');
    }

    // Bob sees the edit (live with scripts, by reload without) and reads his chats by activity too.
    const bobPerson = await open(browser, server.url, 'bob', scripts);
    await follow(bobPerson.page, bobPerson.page.locator('nav.sidebar').getByRole('link', { name: 'Weekend plans' }));
    await bobPerson.page.locator(`#m-${last.id} p.text`, { hasText: 'Sunday' }).waitFor();
    assert.deepEqual([...alice.problems, ...bobPerson.problems], []);
  };
}

test('the chat screen with scripts: sidebar, newest message and composer in view, reply, react, edit, delete from the menu', { timeout: 120_000 }, screen(true));
test('the chat screen without scripts: the same as plain forms and links', { timeout: 120_000 }, screen(false));
