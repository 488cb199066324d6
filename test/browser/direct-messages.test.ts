// Two people message each other directly through the pages only (docs/html.md): the Message button on a user's page,
// the chat listed apart under "Direct messages", a mention highlighted for the one mentioned, the notification level.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test, type TestContext } from 'node:test';
import type { Locator } from 'playwright-core';
import { withServer } from '../http/client.ts';
import { assertAccessible, CHROMIUM, follow, launch, openPerson, screenshot, signUpAndLogIn } from './people.ts';

async function textOf(locator: Locator): Promise<string> {
  return (await locator.textContent() ?? '').replace(/\s+/g, ' ').trim();
}

function directMessages(scripts: boolean): (t: TestContext) => Promise<void> {
  return async (t) => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: \`make test\` installs Debian's chromium`);
    const server = await withServer(t, { host: '127.0.0.1', port: 0 });
    const browser = await launch();
    t.after(() => browser.close());
    const check = (page: Parameters<typeof assertAccessible>[0], what: string) => (scripts ? assertAccessible(page, what) : Promise.resolve());
    const alice = await openPerson(browser, scripts);
    const bob = await openPerson(browser, scripts);
    await signUpAndLogIn(alice, server.url, 'alice', 'alice password');
    await signUpAndLogIn(bob, server.url, 'bob', 'bob password');

    // Alice opens Bob's page and presses Message: the direct chat, named after Bob.
    await alice.page.goto(`${server.url}/users`);
    await follow(alice.page, alice.page.getByRole('link', { name: /(^| )bob$/ }));
    await check(alice.page, 'a user page with the Message button');
    await follow(alice.page, alice.page.getByRole('button', { name: 'Message bob' }));
    assert.match(new URL(alice.page.url()).pathname, /^\/chats\/[^/]+\/messages$/);
    assert.equal(await textOf(alice.page.locator('h1')), 'bob');
    await alice.page.getByLabel('Message', { exact: true }).fill('Lunch today, @bob?');
    await follow(alice.page, alice.page.getByRole('button', { name: 'Send', exact: true }));
    // Pressing Message again opens the same chat.
    await alice.page.goto(`${server.url}/users`);
    await follow(alice.page, alice.page.getByRole('link', { name: /(^| )bob$/ }));
    await follow(alice.page, alice.page.getByRole('button', { name: 'Message bob' }));
    assert.equal(await alice.page.locator('ol.messages > li.message').count(), 1);

    // Bob finds it under Direct messages, named after Alice, with one mention; the mention of him stands out.
    await bob.page.goto(`${server.url}/chats`);
    const direct = bob.page.locator('section', { has: bob.page.getByRole('heading', { name: 'Direct messages' }) });
    assert.match(await textOf(direct), /alice\s+1 unread\s+1 mention/);
    await check(bob.page, 'the chat list with a direct message');
    await follow(bob.page, direct.getByRole('link', { name: /(^| )alice$/ }));
    assert.equal(await textOf(bob.page.locator('h1')), 'alice');
    const mine = bob.page.locator('p.text mark.mention.mine strong');
    assert.equal(await textOf(mine), '@bob');
    await check(bob.page, 'a direct chat with a mention of the reader');
    await screenshot(bob.page, `direct-mention-${scripts ? 'live' : 'static'}.png`);

    // Bob answers; Alice sees his mention of her (live with scripts, on reload without), highlighted for her.
    await bob.page.getByLabel('Message', { exact: true }).fill('Sure, @alice. Noon?');
    await follow(bob.page, bob.page.getByRole('button', { name: 'Send', exact: true }));
    assert.equal(await textOf(bob.page.locator('p.text mark.mention').last()), '@alice', 'others\' mentions are marked too');
    const herMention = alice.page.locator('p.text', { hasText: 'Noon?' }).locator('mark.mention.mine');
    if (scripts) await herMention.waitFor();
    else await alice.page.reload();
    assert.equal(await textOf(herMention), '@alice');

    // Bob turns notifications down to mentions on the chat's page.
    await follow(bob.page, bob.page.getByRole('link', { name: 'About this chat' }));
    assert.equal(await bob.page.getByRole('button', { name: 'Every message' }).getAttribute('aria-pressed'), 'true');
    await follow(bob.page, bob.page.getByRole('button', { name: 'Only mentions of me' }));
    assert.equal(await bob.page.getByRole('button', { name: 'Only mentions of me' }).getAttribute('aria-pressed'), 'true');
    await check(bob.page, 'a direct chat\'s page with the notification level');
    assert.deepEqual([...alice.problems, ...bob.problems], []);
  };
}

test('two people message each other directly, one is mentioned and sees it highlighted (live)', { timeout: 120_000 }, directMessages(true));

test('the same with JavaScript off: the Message button and the level are forms', { timeout: 120_000 }, directMessages(false));
