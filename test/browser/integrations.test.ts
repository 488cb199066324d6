// The integration pages (docs/html.md, Integrations) with the pages only, with and without scripts, in one browser:
// make and revoke a token, make a bot and its token, make an incoming webhook and post through it (the message shows
// in the chat), make an outgoing webhook and read its deliveries with each attempt; every page passes axe-core.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { withServer } from '../http/client.ts';
import { startReceiver } from '../http/webhook-receiver.ts';
import { assertAccessible as assertAccessibleWithAxe, CHROMIUM, follow, launch, openPerson, signUpAndLogIn } from './people.ts';

const FAST = { outbound: { pollMs: 20, retry: { firstDelayMs: 20, maxDelayMs: 100, windowMs: 24 * 3_600_000 } } };

/** A form's answer that is a page of its own (201, a secret shown once), not a redirect. */
async function submitForPage(page: Page, button: string): Promise<void> {
  const [response] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: button, exact: true }).click()]);
  assert.equal(response?.status(), 201, `${button}: ${response?.status()}`);
}

test('tokens, bots and webhooks through their pages, with and without scripts', { timeout: 120_000 }, async (t) => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: \`make test\` installs Debian's chromium`);
  const server = await withServer(t, { host: '127.0.0.1', port: 0, webhookAllowPrivate: true, eventTimings: FAST });
  const browser = await launch();
  t.after(() => browser.close());
  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

  for (const javaScriptEnabled of [true, false]) {
    const mode = javaScriptEnabled ? 'scripts on' : 'scripts off';
    // axe-core runs as a script in the page: without scripts the same pages are only used, not audited.
    const assertAccessible = (page: Page, what: string) => (javaScriptEnabled ? assertAccessibleWithAxe(page, `${what} (${mode})`) : Promise.resolve());
    const login = javaScriptEnabled ? 'ann' : 'ben';
    const person = await openPerson(browser, javaScriptEnabled);
    const { page } = person;
    await signUpAndLogIn(person, server.url, login, `${login} password`);

    // A token: made (its secret shown once), used, revoked.
    await follow(page, page.getByRole('navigation').locator('a.user'));
    await follow(page, page.getByRole('link', { name: 'Access tokens and bots' }));
    await assertAccessible(page, 'the tokens page');
    await page.fill('#token-name', 'CI');
    await submitForPage(page, 'Create token');
    await assertAccessible(page, 'a new token');
    const token = await page.locator('#token-secret').inputValue();
    assert.equal((await fetch(`${server.url}/chats`, bearer(token))).status, 200);
    await follow(page, page.getByRole('link', { name: 'Back to the tokens' }));
    await follow(page, page.getByRole('button', { name: 'Revoke the token CI' }));
    assert.equal((await fetch(`${server.url}/chats`, bearer(token))).status, 401, `${mode}: revoked`);

    // A bot: made on the same page, its tokens page next, where its first token is made.
    await page.fill('#bot-login', `${login}-bot`);
    await follow(page, page.getByRole('button', { name: 'Create bot' }));
    const botId = /^\/users\/([^/]+)\/tokens$/.exec(new URL(page.url()).pathname)?.[1];
    await page.fill('#token-name', 'deploys');
    await submitForPage(page, 'Create token');
    const botToken = await page.locator('#token-secret').inputValue();
    const bot = await (await fetch(`${server.url}/users/${botId}`, bearer(botToken))).json() as { login: string; kind: string };
    assert.deepEqual([bot.login, bot.kind], [`${login}-bot`, 'bot']);

    // A chat, and its webhooks page from the chat's page.
    await follow(page, page.getByRole('navigation').getByRole('link', { name: 'Chats' }));
    await page.fill('#new-chat-title', 'Builds');
    await follow(page, page.getByRole('button', { name: 'Create chat' }));
    const messages = page.url();
    await follow(page, page.getByRole('link', { name: 'About this chat' }));
    await follow(page, page.getByRole('link', { name: 'Webhooks', exact: true }));
    await assertAccessible(page, 'the webhooks page');

    // An incoming webhook: its secret URL takes a POST, and the message is in the chat.
    await page.fill('#incoming-name', 'Deploys');
    await submitForPage(page, 'Create incoming webhook');
    await assertAccessible(page, 'a new incoming webhook');
    const hookUrl = await page.locator('#webhook-url').inputValue();
    const posted = await fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Build 42 passed' }) });
    assert.equal(posted.status, 201);
    await page.goto(messages);
    await page.locator('p.text', { hasText: 'Build 42 passed' }).waitFor();
    await assertAccessible(page, 'the chat with the webhook\'s message');

    // An outgoing webhook whose receiver fails once: its delivery shows both attempts.
    const receiver = await startReceiver(t, (got) => (receiver.received.indexOf(got) === 0 ? { status: 503 } : { status: 204 }));
    await follow(page, page.getByRole('link', { name: 'About this chat' }));
    await follow(page, page.getByRole('link', { name: 'Webhooks', exact: true }));
    await page.fill('#outgoing-name', 'Triage');
    await page.fill('#outgoing-url', receiver.url);
    await submitForPage(page, 'Create outgoing webhook');
    receiver.secret = await page.locator('#webhook-secret').inputValue();
    assert.match(receiver.secret, /^whsec_/);
    assert.equal((await fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Build 43 failed' }) })).status, 201);
    await receiver.waitFor(2);
    await server.app.services.outbound.loop.idle();
    assert.deepEqual(receiver.failures, []);
    await follow(page, page.getByRole('link', { name: 'The chat\'s webhooks' }));
    await follow(page, page.getByRole('link', { name: 'Deliveries' }));
    assert.match(await page.locator('main h2').first().innerText(), /^Delivery \d+: delivered$/);
    const attempts = page.locator('main table').first().locator('tbody tr');
    assert.deepEqual((await attempts.allInnerTexts()).map((row) => row.split('\t').filter((cell, index) => index !== 1 && index !== 3).map((cell) => cell.trim())), [['1', '503', 'HTTP 503'], ['2', '204', '']]);
    await assertAccessible(page, 'the deliveries page');
    assert.deepEqual(person.problems, []);
    await person.context.close();
  }
});
