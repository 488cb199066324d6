// Every kind of page, full of hostile logins, titles and texts: no script runs, axe-core finds nothing serious
// (light and dark), and at 320 px nothing overflows sideways. Screenshots go to test-output/browser/.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { png } from '../http/avatar-fixtures.ts';
import { call, registerAndLogIn, withServer } from '../http/client.ts';
import { assertAccessible, assertNoHorizontalOverflow, CHROMIUM, follow, launch, screenshot } from './people.ts';

const SCRIPT = '<script>window.__xss = 1</script>';
const BREAKOUT = '"><img src=x onerror="window.__xss = 2">';
const LONG_WORD = `https://example.com/${'averyveryverylongpathsegment'.repeat(8)}`;

async function assertNothingRan(page: Page, what: string, problems: string[]): Promise<void> {
  assert.equal(await page.evaluate(() => (globalThis as { __xss?: number }).__xss), undefined, `${what}: no injected script ran`);
  assert.equal(await page.locator('img[src="x"]').count(), 0, `${what}: no element made of a user's string`);
  assert.deepEqual(problems, [], what);
}

test('hostile strings stay text on every page; no serious axe violation, light or dark; nothing overflows at 320 px', { timeout: 180_000 }, async (t) => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: \`make test\` installs Debian's chromium`);
  const server = await withServer(t, { host: '127.0.0.1', port: 0 });
  // Logins may only hold letters, digits, '.', '_' and '-': the hostile ones name Object.prototype members.
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const proto = await registerAndLogIn(server, '__proto__', 'proto password');
  const ctor = await registerAndLogIn(server, 'constructor', 'ctor password');
  const chat = await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: `${SCRIPT}${BREAKOUT} ${'W'.repeat(100)}`, members: [proto.userId, ctor.userId] } } });
  assert.equal(chat.status, 201);
  const chatId: string = chat.body.data.id;
  const first = await call(server, 'POST', `/chats/${chatId}/messages`, { token: proto.token, json: { data: { text: `${SCRIPT}\n${BREAKOUT}\n${LONG_WORD}` } } });
  const messageId: string = first.body.data.id;
  await call(server, 'POST', `/chats/${chatId}/messages`, { token: ctor.token, json: { data: { text: `hiking ${BREAKOUT}`, replyTo: messageId } } });
  await call(server, 'POST', `/chats/${chatId}/messages`, { token: alice.token, json: { data: { text: 'مرحبا hiking ‮reversed' } } });
  for (const emoji of ['👍', '<b>x', '"><i>']) {
    const reacted = await call(server, 'PUT', `/chats/${chatId}/messages/${messageId}/reactions/${encodeURIComponent(emoji)}`, { token: ctor.token });
    assert.equal(reacted.status, 201, reacted.text);
  }
  await call(server, 'PATCH', `/chats/${chatId}/messages/${messageId}`, { token: proto.token, json: { data: { text: `${SCRIPT} edited` } } });
  const avatar = await call(server, 'POST', `/users/${alice.userId}/avatar`, { token: alice.token, json: { avatar: png(400, 300).toString('base64'), x: 50, y: 0, width: 300, height: 300 } });
  assert.equal(avatar.status, 201);
  await call(server, 'PATCH', '/users', { token: alice.token, json: { avatar: avatar.body.id } });
  // alice signed up first, so she is the admin: her invites (one made by __proto__ too) fill the admin pages.
  const invite = await call(server, 'POST', '/invites', { token: alice.token, json: { data: { maxUses: 3, role: 'admin' } } });
  assert.equal(invite.status, 201);
  assert.equal((await call(server, 'POST', '/invites', { token: proto.token, json: { data: { expiresAt: null } } })).status, 201);

  const browser = await launch();
  t.after(() => browser.close());
  const pages: [string, string][] = [
    ['landing', '/'],
    ['chats', '/chats'],
    ['chat', `/chats/${chatId}`],
    ['members', `/chats/${chatId}/members`],
    ['messages', `/chats/${chatId}/messages`],
    ['message', `/chats/${chatId}/messages/${messageId}`],
    ['users', '/users'],
    ['user', `/users/${alice.userId}`],
    ['avatars', `/users/${alice.userId}/avatar`],
    ['sessions', `/users/${alice.userId}/sessions`],
    ['export', `/users/${alice.userId}/export`],
    ['search', '/search?q=hiking'],
    ['session', '/session'],
    ['admin', '/admin'],
    ['invites', '/invites'],
    ['invite', `/invites/${String(invite.body.data.id)}`],
    ['join', `/join/${String(invite.body.data.code)}`],
  ];
  for (const [scheme, width] of [['light', 320], ['dark', 1280]] as const) {
    const context = await browser.newContext({ viewport: { width, height: 700 }, colorScheme: scheme });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(`${server.url}/session`);
    await assertAccessible(page, `${scheme}: the login form`);
    await page.fill('input[name="login"]', 'alice');
    await page.fill('input[name="password"]', 'alice password');
    await follow(page, page.getByRole('button', { name: 'Log in' }));
    for (const [name, path] of pages) {
      const response = await page.goto(`${server.url}${path}`);
      assert.equal(response?.status(), 200, path);
      const what = `${scheme} ${width} px ${name}`;
      await assertNothingRan(page, what, problems);
      await assertAccessible(page, what);
      await assertNoHorizontalOverflow(page, what);
      if (width === 320) await screenshot(page, `320-${name}.png`);
    }
    // The form page shown again after a broken rule (an empty message) is checked the same way.
    await page.goto(`${server.url}/chats/${chatId}/messages`);
    await page.getByRole('button', { name: 'Send', exact: true }).evaluate((button) => button.closest('form')!.noValidate = true);
    // The page's script posts it in place: the server's form, with its error, takes the composer's place (a 400).
    const [again] = await Promise.all([page.waitForResponse((answer) => answer.request().method() === 'POST'), page.getByRole('button', { name: 'Send', exact: true }).click()]);
    assert.equal(again.status(), 400);
    await page.locator('#compose-text-error').waitFor();
    assert.match(await page.locator('#compose-text-error').innerText(), /Message: is required/);
    await assertAccessible(page, `${scheme}: the composer again with its error`);
    await assertNoHorizontalOverflow(page, `${scheme}: the composer again with its error`);
    if (width === 320) await screenshot(page, '320-form-error.png');
    // The hostile text is on the page as text.
    await page.goto(`${server.url}/chats/${chatId}/messages`);
    assert.ok((await page.locator('ol.messages').textContent())!.includes(`${SCRIPT} edited`));
    assert.ok((await page.locator('h1').textContent())!.includes(BREAKOUT));
    await assertNothingRan(page, `${scheme}: the chat after all`, problems);
    await context.close();
  }
});
