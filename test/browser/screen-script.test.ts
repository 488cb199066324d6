// The chat screen's script (docs/html.md, "What the script does"), two people in one Chromium: forms in place, the
// list live, older messages above, the read marker as one reads. The same forms without scripts: conversation.test.ts.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { Page, Request } from 'playwright-core';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, withServer, type LoggedIn } from '../http/client.ts';
import { assertNotReloaded, launch, logIn, markWindow, openPerson, type Person } from './people.ts';

interface Scene { server: RunningServer; alice: LoggedIn; bob: LoggedIn; chatId: string; path: string }

/** Alice's chat with Bob, with `count` messages of hers in it. */
async function makeScene(t: TestContext, count: number): Promise<Scene> {
  const server = await withServer(t, { host: '127.0.0.1', port: 0 });
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const bob = await registerAndLogIn(server, 'bob', 'bob password');
  const chat = await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Screen', members: [bob.userId] } } });
  const chatId: string = chat.body.data.id;
  const path = `/chats/${chatId}/messages`;
  for (let i = 1; i <= count; i++) await call(server, 'POST', path, { token: alice.token, json: { data: { text: `Message ${i} from Alice` } } });
  return { server, alice, bob, chatId, path };
}

/** Both people on the chat, each page's stream open at the server. */
async function openBoth(t: TestContext, scene: Scene, height = 800): Promise<{ alice: Person; bob: Person }> {
  const browser = await launch();
  t.after(() => browser.close());
  const alice = await openPerson(browser, true);
  const bob = await openPerson(browser, true);
  await bob.page.setViewportSize({ width: 1100, height });
  await logIn(alice, scene.server.url, 'alice', 'alice password');
  await logIn(bob, scene.server.url, 'bob', 'bob password');
  for (const person of [alice, bob]) await person.page.goto(`${scene.server.url}${scene.path}`);
  const events = scene.server.app.services.events;
  for (let tries = 0; tries < 2000 && events.streamCount() < 2; tries++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(events.streamCount(), 2, 'both pages opened their event stream');
  for (const person of [alice, bob]) await markWindow(person.page);
  return { alice, bob };
}

const item = (page: Page, text: string) => page.locator('[data-message-id]', { hasText: text });
const composer = (page: Page) => page.locator('textarea#compose-text');

test('sending and reacting happen in place, a refused form comes back in place, drafts stay, the other person sees it live', { timeout: 90_000 }, async (t) => {
  const scene = await makeScene(t, 3);
  await call(scene.server, 'PUT', `${scene.path}/${(await call(scene.server, 'GET', scene.path, { token: scene.alice.token })).body.data[0].id}/reactions/${encodeURIComponent('👍')}`, { token: scene.alice.token });
  const { alice, bob } = await openBoth(t, scene);
  await composer(bob.page).fill('Half a thought of Bob');

  await composer(alice.page).fill('Hello Bob, <b>not bold</b>');
  await alice.page.getByRole('button', { name: 'Send', exact: true }).click();
  await item(alice.page, 'Hello Bob').waitFor();
  assert.equal(await composer(alice.page).inputValue(), '', 'the composer is emptied once sent');
  await item(bob.page, 'Hello Bob').waitFor();
  assert.equal(await bob.page.locator('[data-live] b').count(), 0, 'the text stays text');
  assert.equal(await composer(bob.page).inputValue(), 'Half a thought of Bob', 'what Bob typed stays while messages arrive');

  // Bob adds his thumbs up to Alice's first message; Alice sees two.
  await item(bob.page, 'Message 1 from Alice').locator('ul.reactions button', { hasText: '👍' }).click();
  await item(bob.page, 'Message 1 from Alice').locator('button[aria-pressed="true"]', { hasText: '👍 2' }).waitFor();
  await item(alice.page, 'Message 1 from Alice').locator('button', { hasText: '👍 2' }).waitFor();
  assert.equal(await composer(bob.page).inputValue(), 'Half a thought of Bob', 'reacting keeps the draft');

  // A form the server refuses comes back with its error, in place: an empty message.
  await composer(alice.page).fill('');
  await alice.page.getByRole('button', { name: 'Send', exact: true }).click();
  await alice.page.locator('form [role=alert], form .error').first().waitFor();

  // Bob sends his draft; Alice sees it.
  await bob.page.getByRole('button', { name: 'Send', exact: true }).click();
  await item(alice.page, 'Half a thought of Bob').waitFor();
  assert.equal(await composer(bob.page).inputValue(), '');

  for (const person of [alice, bob]) {
    await assertNotReloaded(person.page, 'sending and reacting');
    assert.deepEqual(person.problems, []);
  }
});

/** The mouse over the conversation's scroll box, for the wheel. */
async function pointAtMessages(page: Page): Promise<void> {
  const box = (await page.locator('.scroller').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
}

test('older messages load above as the reader scrolls up, in order, and the message in view does not move', { timeout: 90_000 }, async (t) => {
  const scene = await makeScene(t, 45);
  const browser = await launch();
  t.after(() => browser.close());
  const bob = await openPerson(browser, true);
  await logIn(bob, scene.server.url, 'bob', 'bob password');
  // The older page waits until the position of a message in view is measured.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => { release = resolve; });
  await bob.page.route((url) => url.searchParams.has('before'), async (route) => { await held; await route.continue(); });
  // Asked for as soon as the link comes near the view: on open already, or once scrolled up.
  const asked = bob.page.waitForRequest((request) => new URL(request.url()).searchParams.has('before'));
  await bob.page.goto(`${scene.server.url}${scene.path}`);
  await markWindow(bob.page);
  await pointAtMessages(bob.page);
  await bob.page.mouse.wheel(0, -5000);
  await asked;
  // The wheel scrolls smoothly: measure once the scroll box is at rest (ten frames without moving), as the reader is.
  // (A string: tsx would name a function written here, and the page has no __name.)
  await bob.page.evaluate(`new Promise((resolve) => {
    const element = document.querySelector('.scroller');
    let last = element.scrollTop;
    let still = 0;
    const check = () => {
      if (element.scrollTop === last) still += 1;
      else { last = element.scrollTop; still = 0; }
      if (still >= 10) resolve();
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })`);
  const first = item(bob.page, 'Message 27 from Alice');
  // Measured in the scroll box (the line above it may change height as the unread count goes).
  const top = async () => (await first.boundingBox())!.y - (await bob.page.locator('.scroller').boundingBox())!.y;
  const before = await top();
  release();
  await item(bob.page, 'Message 6 from Alice').waitFor({ state: 'attached' });
  assert.ok(Math.abs((await top()) - before) <= 1, `the message in view moved from ${before} to ${await top()}`);
  // Scrolling up to the top loads the oldest page.
  for (let tries = 0; tries < 50 && (await item(bob.page, 'Message 1 from Alice').count()) === 0; tries++) await bob.page.mouse.wheel(0, -5000);
  await item(bob.page, 'Message 1 from Alice').waitFor({ state: 'attached' });
  const texts = await bob.page.locator('[data-message-id] p.text').allInnerTexts();
  assert.deepEqual(texts, Array.from({ length: 45 }, (_, index) => `Message ${index + 1} from Alice`));
  assert.equal(await bob.page.locator('main a[rel=prev]').count(), 0, 'no older page left');
  assert.equal(await bob.page.locator('ol.messages > li.day').count(), 1, 'one day, one separator, where pages joined too');
  await assertNotReloaded(bob.page, 'loading older messages');
  assert.deepEqual(bob.problems, []);
});

test('the read marker follows what the reader sees, only forwards', { timeout: 90_000 }, async (t) => {
  const scene = await makeScene(t, 20);
  const { alice, bob } = await openBoth(t, scene, 500);
  const sent: string[] = [];
  bob.page.on('request', (request: Request) => {
    if (request.method() === 'PUT' && request.url().endsWith('/read')) sent.push(JSON.parse(request.postData() ?? '{}').data.lastReadId);
  });
  const marker = async () => (await call(scene.server, 'GET', `/chats/${scene.chatId}/read`, { token: scene.bob.token })).body.data;
  const until = async (holds: (data: { lastReadId: string | null; unreadCount: number }) => boolean) => {
    for (let tries = 0; tries < 400 && !holds(await marker()); tries++) await new Promise((resolve) => setTimeout(resolve, 25));
    return marker();
  };
  const ids = await bob.page.locator('[data-message-id]').evaluateAll((elements) => elements.map((element) => (element as unknown as { dataset: { messageId: string } }).dataset.messageId));
  // The chat opens at its newest message: what is in view is read, up to the newest.
  assert.deepEqual(await until((data) => data.lastReadId === ids.at(-1)), { chatId: scene.chatId, lastReadId: ids.at(-1), unreadCount: 0, mentionCount: 0 });
  // Scrolled up, out of sight of the end: a new message arrives below the view and stays unread...
  await pointAtMessages(bob.page);
  await bob.page.mouse.wheel(0, -2000);
  await call(scene.server, 'POST', scene.path, { token: scene.alice.token, json: { data: { text: 'One more from Alice' } } });
  await item(bob.page, 'One more from Alice').waitFor({ state: 'attached' });
  assert.equal((await marker()).unreadCount, 1);
  // The line above the conversation shows Mark all as read now, and keeps its height when it goes (no layout shift).
  const markAll = bob.page.locator('.chat-nav button', { hasText: 'Mark all as read' });
  await markAll.waitFor();
  const navHeight = () => bob.page.locator('.chat-nav').evaluate((element) => element.getBoundingClientRect().height);
  const withButton = await navHeight();
  // ...until the reader scrolls down to it.
  await bob.page.mouse.wheel(0, 5000);
  assert.equal((await until((data) => data.unreadCount === 0)).unreadCount, 0);
  await markAll.waitFor({ state: 'detached' });
  assert.equal(await navHeight(), withButton);
  assert.deepEqual(sent, [...sent].sort(), 'every PUT moved the marker forwards');
  assert.equal(new Set(sent).size, sent.length, 'never the same marker twice');
  assert.deepEqual([...alice.problems, ...bob.problems], []);
});

test('the sidebar follows the stream: another chat\'s message moves it to the top with its badge; recent reactions come first', { timeout: 90_000 }, async (t) => {
  const scene = await makeScene(t, 2);
  const other = (await call(scene.server, 'POST', '/chats', { token: scene.bob.token, json: { data: { title: 'Elsewhere', members: [scene.alice.userId] } } })).body.data.id as string;
  // Screen active last (a message after Elsewhere was made): it leads the sidebar.
  await call(scene.server, 'POST', scene.path, { token: scene.alice.token, json: { data: { text: 'Latest in Screen' } } });
  const { alice, bob } = await openBoth(t, scene);
  const order = () => alice.page.locator('[data-live-sidebar] [data-chat-id]').evaluateAll((items) => items.map((entry) => (entry as unknown as { dataset: { chatId: string } }).dataset.chatId));
  assert.deepEqual(await order(), [scene.chatId, other]);
  await call(scene.server, 'POST', `/chats/${other}/messages`, { token: scene.bob.token, json: { data: { text: 'Over here, Alice' } } });
  await alice.page.locator(`[data-live-sidebar] [data-chat-id="${other}"]`, { hasText: '1 unread' }).waitFor();
  assert.deepEqual(await order(), [other, scene.chatId]);

  // Alice reacts with a typed emoji from one message's menu; the next menu offers it first, and one click sends it.
  const [first, second] = await alice.page.locator('[data-message-id]').evaluateAll((elements) => elements.map((element) => (element as unknown as { dataset: { messageId: string } }).dataset.messageId));
  await alice.page.locator(`#m-${first} details.menu > summary`).click();
  await alice.page.locator(`#m-${first}`).getByLabel('Any emoji').fill('🦄');
  await alice.page.locator(`#m-${first}`).getByRole('button', { name: 'React', exact: true }).click();
  await bob.page.locator(`#m-${first} ul.reactions button`, { hasText: '🦄 1' }).waitFor();
  await alice.page.locator(`#m-${second} details.menu > summary`).click();
  const recent = alice.page.locator(`#m-${second} [data-recent-emoji] button`);
  // The row comes with the menu's toggle event, a task after the click.
  await recent.first().waitFor();
  assert.deepEqual(await recent.allInnerTexts(), ['🦄']);
  await recent.first().click();
  await bob.page.locator(`#m-${second} ul.reactions button`, { hasText: '🦄 1' }).waitFor();
  for (const person of [alice, bob]) {
    await assertNotReloaded(person.page, 'the sidebar and reactions');
    assert.deepEqual(person.problems, []);
  }
});
