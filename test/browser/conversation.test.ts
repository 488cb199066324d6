// Two people hold a conversation through the HTML pages only, in two browsers: with scripts (live updates) and without.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { withServer } from '../http/client.ts';
import { assertAccessible, CHROMIUM, follow, launch, openPerson, screenshot, signUpAndLogIn, type Person } from './people.ts';

async function openChat(page: Page, title: string): Promise<void> {
  await follow(page, page.getByRole('link', { name: title, exact: true }));
  assert.match(new URL(page.url()).pathname, /^\/chats\/[^/]+\/messages$/);
}

async function goToChats(page: Page): Promise<void> {
  await follow(page, page.getByRole('navigation').getByRole('link', { name: 'Chats', exact: true }));
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await follow(page, page.getByRole('button', { name: 'Send', exact: true }));
}

/** What a person reads in an element, whitespace folded (flex items make innerText break lines). */
async function textOf(locator: Locator): Promise<string> {
  return (await locator.textContent() ?? '').replace(/\s+/g, ' ').trim();
}

/** The message item on a chat page holding this text. */
function messageItem(page: Page, text: string) {
  return page.locator('ol.messages > li', { has: page.locator('p.text', { hasText: text }) });
}

async function conversation(scripts: boolean): Promise<(t: import('node:test').TestContext) => Promise<void>> {
  return async (t) => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: \`make test\` installs Debian's chromium`);
    const server = await withServer(t, { host: '127.0.0.1', port: 0 });
    const browser = await launch();
    t.after(() => browser.close());
    const suffix = scripts ? 'live' : 'static';
    // axe-core runs as a script in the page: with scripts off the same pages were checked by the first run.
    const check = (page: Page, what: string) => (scripts ? assertAccessible(page, what) : Promise.resolve());
    const alice: Person = await openPerson(browser, scripts);
    const bob: Person = await openPerson(browser, scripts);
    await signUpAndLogIn(alice, server.url, 'alice', 'alice password');
    await signUpAndLogIn(bob, server.url, 'bob', 'bob password');
    await check(alice.page, 'the empty chat list');

    // Alice creates a chat, adds Bob on its members page, and writes.
    await alice.page.getByLabel('Title').fill('Weekend plans');
    await follow(alice.page, alice.page.getByRole('button', { name: 'Create chat' }));
    assert.equal(await textOf(alice.page.locator('h1')), 'Weekend plans');
    await follow(alice.page, alice.page.getByRole('link', { name: /^Members/ }));
    await check(alice.page, 'the members page');
    await follow(alice.page, alice.page.getByRole('button', { name: 'Add bob' }));
    assert.match(await textOf(alice.page.locator('ul.people').first()), /bob/);
    await follow(alice.page, alice.page.getByRole('link', { name: 'Back to the messages' }));
    await send(alice.page, 'Shall we go hiking on Saturday?');
    assert.match(new URL(alice.page.url()).hash, /^#m-/);
    await check(alice.page, 'a chat with one message');

    // Bob sees the chat with one unread message, opens it on its newest messages, and replies from the message's page
    // (its time links there; the chat screen's own menu is test/browser/chat-screen.test.ts's).
    await goToChats(bob.page);
    assert.match(await textOf(bob.page.locator('ul.chats').first()), /Weekend plans\s+1 unread/);
    await openChat(bob.page, 'Weekend plans');
    const hiking = messageItem(bob.page, 'Shall we go hiking on Saturday?');
    assert.match(await textOf(hiking.locator('.byline')), /^alice\b/, 'the author by login, not by id');
    await follow(bob.page, hiking.locator('a.when'));
    await check(bob.page, 'a message page');
    await bob.page.getByLabel('Your reply').fill('Yes! I will bring sandwiches.');
    await follow(bob.page, bob.page.getByRole('button', { name: 'Send reply' }));
    const reply = messageItem(bob.page, 'Yes! I will bring sandwiches.');
    assert.match(await textOf(reply.locator('.quote')), /In reply to alice: Shall we go hiking on Saturday\?/);

    // Alice sees the reply: live with scripts, on reload without.
    const aliceReply = messageItem(alice.page, 'Yes! I will bring sandwiches.');
    if (scripts) await aliceReply.waitFor();
    else {
      assert.equal(await aliceReply.count(), 0, 'no script, no live update');
      await alice.page.reload();
    }
    assert.match(await textOf(aliceReply.locator('.quote')), /In reply to alice/);

    // Bob reacts to Alice's message from its page; Alice sees the reaction.
    // The reply landed on the chat's page, scrolled to it.
    assert.match(new URL(bob.page.url()).pathname, /^\/chats\/[^/]+\/messages$/);
    await follow(bob.page, messageItem(bob.page, 'Shall we go hiking').locator('a.when'));
    await follow(bob.page, bob.page.locator('ul.palette button', { hasText: '👍' }));
    assert.equal(await bob.page.locator('ul.palette button', { hasText: '👍' }).getAttribute('aria-pressed'), 'true');
    const aliceThumb = messageItem(alice.page, 'Shall we go hiking').locator('ul.reactions button', { hasText: '👍 1' });
    if (!scripts) await alice.page.reload();
    await aliceThumb.waitFor();
    assert.equal(await aliceThumb.getAttribute('title'), 'bob');

    // Alice edits her message on its page; Bob's chat page shows "(edited)".
    await follow(alice.page, messageItem(alice.page, 'Shall we go hiking').locator('a.when'));
    await alice.page.getByLabel('Text', { exact: true }).fill('Shall we go hiking on Sunday?');
    await follow(alice.page, alice.page.getByRole('button', { name: 'Save' }));
    assert.match(await textOf(alice.page.locator('article .text')), /Sunday/);
    await follow(bob.page, bob.page.getByRole('link', { name: 'Back to Weekend plans' }));
    const edited = messageItem(bob.page, 'Shall we go hiking on Sunday?');
    if (!scripts) await bob.page.reload();
    await edited.locator('.edited').waitFor();
    await screenshot(bob.page, `conversation-${suffix}.png`);

    // Alice's chat list counts Bob's reply as unread; Bob's counts nothing (his own message moved his marker).
    await goToChats(alice.page);
    assert.match(await textOf(alice.page.locator('ul.chats').first()), /Weekend plans\s+1 unread/);
    await goToChats(bob.page);
    assert.doesNotMatch(await textOf(bob.page.locator('ul.chats').first()), /unread/);
    await check(alice.page, 'the chat list with an unread chat');

    // Both log out; their chats are out of reach.
    for (const person of [alice, bob]) {
      await follow(person.page, person.page.getByRole('button', { name: 'Log out' }));
      assert.equal(new URL(person.page.url()).pathname, '/');
      const after = await person.page.goto(`${server.url}/chats`);
      assert.equal(after?.status(), 401);
      assert.deepEqual(person.problems, []);
    }
  };
}

test('two people talk through the pages: sign up, chat, add, post, reply, react, edit, unread counts, log out (live)', { timeout: 120_000 }, await conversation(true));

test('the same conversation with JavaScript off: every action by form, every change seen on reload', { timeout: 120_000 }, await conversation(false));
