// An administrator invites through the admin page and a newcomer joins through the link, with the pages only, with
// and without scripts: every page on the way passes axe-core (no serious or critical violation) and fits 320 px.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { withServer } from '../http/client.ts';
import { assertAccessible as assertAccessibleWithAxe, assertNoHorizontalOverflow, CHROMIUM, follow, launch, openPerson, screenshot, signUpAndLogIn } from './people.ts';

for (const javaScriptEnabled of [true, false]) {
  test(`an admin invites on /admin, a newcomer joins through the link and logs in (scripts ${javaScriptEnabled ? 'on' : 'off'})`, { timeout: 120_000 }, async (t) => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: \`make test\` installs Debian's chromium`);
    // axe-core runs as a script in the page: without scripts the same pages are only used, not audited.
    const assertAccessible = (page: Page, what: string) => (javaScriptEnabled ? assertAccessibleWithAxe(page, what) : Promise.resolve());
    const server = await withServer(t, { host: '127.0.0.1', port: 0, registration: 'invite' });
    const browser = await launch();
    t.after(() => browser.close());
    const admin = await openPerson(browser, javaScriptEnabled, 320);
    // The landing page by invite: its sign-up form asks for a code, which the first account needs not give.
    await admin.page.goto(`${server.url}/`);
    assert.equal(await admin.page.locator('#signup-inviteCode').count(), 1);
    await assertAccessible(admin.page, 'the landing page, sign-up by invite');
    await assertNoHorizontalOverflow(admin.page, 'the landing page, sign-up by invite');
    // The first account needs no invite and is the admin.
    await signUpAndLogIn(admin, server.url, 'alice', 'alice password');
    await follow(admin.page, admin.page.getByRole('link', { name: 'Admin', exact: true }));
    assert.equal(new URL(admin.page.url()).pathname, '/admin');
    await assertAccessible(admin.page, 'the admin page');
    await assertNoHorizontalOverflow(admin.page, 'the admin page');
    await admin.page.fill('#invite-maxUses', '2');
    const [created] = await Promise.all([admin.page.waitForNavigation(), admin.page.getByRole('button', { name: 'Create invite' }).click()]);
    assert.equal(created?.status(), 201);
    await assertAccessible(admin.page, 'the new invite');
    await assertNoHorizontalOverflow(admin.page, 'the new invite');
    if (javaScriptEnabled) await screenshot(admin.page, '320-new-invite.png');
    const link = await admin.page.locator('#invite-url').inputValue();
    assert.match(link, /\/join\/[A-Za-z0-9_-]{32}$/);

    const newcomer = await openPerson(browser, javaScriptEnabled, 320);
    await newcomer.page.goto(link);
    await assertAccessible(newcomer.page, 'the join page');
    await assertNoHorizontalOverflow(newcomer.page, 'the join page');
    if (javaScriptEnabled) await screenshot(newcomer.page, '320-join.png');
    await newcomer.page.fill('#signup-login', 'bob');
    await newcomer.page.fill('#signup-password', 'bob password');
    await follow(newcomer.page, newcomer.page.getByRole('button', { name: 'Sign up' }));
    // Signed in by the sign-up itself (docs/html.md, Sign-up from a page): straight into the chats.
    assert.equal(new URL(newcomer.page.url()).pathname, '/chats');
    await assertAccessible(newcomer.page, 'the chats after joining');
    assert.equal(await newcomer.page.getByRole('link', { name: 'Admin', exact: true }).count(), 0, 'no Admin link for a member');

    // Back on the admin page: bob is listed; promote him, then revoke the invite.
    await admin.page.goto(`${server.url}/admin`);
    await follow(admin.page, admin.page.getByRole('button', { name: 'Make admin: bob' }));
    assert.equal(new URL(admin.page.url()).pathname, '/admin');
    assert.equal(await admin.page.getByRole('button', { name: 'Make member: bob' }).count(), 1);
    await follow(admin.page, admin.page.getByRole('button', { name: /^Revoke the invite/ }).first());
    assert.ok((await admin.page.locator('#invites-heading ~ div table').innerText()).includes('revoked'));
    await assertAccessible(admin.page, 'the admin page after the changes');
    await newcomer.page.goto(link);
    assert.match(await newcomer.page.locator('h1').innerText(), /cannot be used/);
    await assertAccessible(newcomer.page, 'the join page of a revoked invite');
    assert.deepEqual([...admin.problems, ...newcomer.problems], []);
  });
}
