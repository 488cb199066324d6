// People first, in Chromium: the landing page (axe-clean light and dark, fits 360 px), installable as an app (the
// manifest and icons as Chromium reads them), sign-up that signs you in with and without scripts, and message text,
// reactions and type as a person meets them.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { withServer } from '../http/client.ts';
import { assertAccessible, assertNoHorizontalOverflow, CHROMIUM, follow, launch, openPerson, screenshot, signUpAndLogIn } from './people.ts';

test('the landing page, installable; sign-up signs in (scripts on and off); Markdown, reaction names and emoji fonts', { timeout: 120_000 }, async (t) => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: \`make test\` installs Debian's chromium`);
  // 127.0.0.1 is a secure context, as installing needs.
  const server = await withServer(t, { host: '127.0.0.1', port: 0 });
  const browser = await launch();
  t.after(() => browser.close());

  const alice = await openPerson(browser, true, 360);
  const { page } = alice;
  await page.goto(`${server.url}/`);
  assert.equal(await page.title(), 'Chat');
  assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Chat');
  assert.equal(await page.getByRole('heading', { name: 'Log in' }).count(), 1);
  assert.equal(await page.getByRole('link', { name: 'API reference' }).getAttribute('href'), '/docs');
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await assertAccessible(page, `the landing page (${colorScheme})`);
    await assertNoHorizontalOverflow(page, `the landing page at 360 px (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await screenshot(page, '360-landing.png');
  // Emoji fall back to the colour emoji fonts after the system's faces (docs/html.md, Text).
  const fonts = await page.evaluate('getComputedStyle(document.body).fontFamily') as string;
  for (const font of ['"Apple Color Emoji"', '"Segoe UI Emoji"', '"Noto Color Emoji"']) assert.ok(fonts.includes(font), `${font} in ${fonts}`);

  // Installable: Chromium reads the manifest and its icons and finds nothing missing. Not from an incognito context
  // (Playwright's contexts are): a profile of its own, for this check only.
  const profile = await mkdtemp(join(tmpdir(), 'chat-install-'));
  t.after(() => rm(profile, { recursive: true, force: true }));
  const installer = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  t.after(() => installer.close());
  const installPage = installer.pages()[0] ?? await installer.newPage();
  await installPage.goto(`${server.url}/`);
  const cdp = await installer.newCDPSession(installPage);
  const manifest = await cdp.send('Page.getAppManifest') as { url: string; errors: unknown[]; data?: string };
  assert.equal(manifest.url, `${server.url}/manifest.webmanifest`);
  assert.deepEqual(manifest.errors, []);
  assert.equal(JSON.parse(manifest.data ?? '{}').display, 'standalone');
  // The icons are fetched and decoded as part of this check.
  const installable = await cdp.send('Page.getInstallabilityErrors') as { installabilityErrors: { errorId: string }[] };
  assert.deepEqual(installable.installabilityErrors, [], 'installable');
  await installer.close();
  const favicon = await page.evaluate(`fetch('/favicon.ico').then((res) => [res.status, res.headers.get('content-type')])`);
  assert.deepEqual(favicon, [200, 'image/x-icon']);

  // Sign-up signs in: straight into the (empty) chats.
  await signUpAndLogIn(alice, server.url, 'alice', 'alice password');
  assert.equal(await page.title(), 'Your chats · Chat');
  await page.goto(`${server.url}/`);
  await follow(page, page.getByRole('link', { name: 'Open your chats' }));

  // Without scripts the same form does the same.
  const bob = await openPerson(browser, false, 1280);
  await signUpAndLogIn(bob, server.url, 'bob', 'bob password');
  assert.match(await bob.page.locator('header nav').innerText(), /Signed in as\s+bob/);

  // Markdown and a reaction named in words, as a screen reader meets them.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${server.url}/chats`);
  await page.fill('input[name="title"]', 'Weekend');
  await follow(page, page.getByRole('button', { name: 'Create' }));
  await page.fill('textarea[name="text"]', '**Hiking** on *Sunday*?\n- boots\n- `water`\nRoute: https://maps.example/route?id=7.');
  // The chat screen's script sends it in place (client/chat-screen.ts): the message comes into the list.
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const text = page.locator('ol.messages .text').last();
  await text.locator('strong').waitFor();
  assert.equal(await text.locator('strong').innerText(), 'Hiking');
  assert.deepEqual(await text.locator('li').allInnerTexts(), ['boots', 'water']);
  const link = text.getByRole('link', { name: 'https://maps.example/route?id=7' });
  assert.deepEqual([await link.getAttribute('href'), await link.getAttribute('rel')], ['https://maps.example/route?id=7', 'noopener nofollow ugc']);
  // The message's own page, by its time (the chat screen's menu is test/browser/chat-screen.test.ts's).
  await follow(page, page.locator('ol.messages > li.message').last().locator('a.when'));
  await follow(page, page.getByRole('button', { name: 'thumbs up', exact: true }));
  assert.equal(await page.getByRole('button', { name: 'thumbs up, 1, you reacted' }).count(), 2, 'under the message and in the palette');
  await assertAccessible(page, 'a message with Markdown and a reaction');
  await screenshot(page, '1280-markdown-message.png');
  assert.deepEqual([...alice.problems, ...bob.problems], []);
});
