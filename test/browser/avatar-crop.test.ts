// In Chromium, an avatar's HTML page and list show the image cropped to its zone, at a fixed size, under the strict CSP.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { avatarForm, multipart, MULTIPART_TYPE, paintedPng } from '../http/avatar-fixtures.ts';
import { call, registerAndLogIn, withServer } from '../http/client.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const RED = [230, 20, 20] as const;
const BLUE = [20, 20, 230] as const;

/** Counts the red and the blue pixels of a PNG screenshot, read back through a canvas on a blank page. */
async function countColours(page: Page, screenshot: Buffer): Promise<{ red: number; blue: number; total: number }> {
  return page.evaluate(async (base64) => {
    // Runs in the page; the project's TypeScript setup has no DOM library, so the page's globals are untyped here.
    const { document, Image } = globalThis as any;
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    let red = 0;
    let blue = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i]! > 150 && data[i + 2]! < 100) red++;
      if (data[i + 2]! > 150 && data[i]! < 100) blue++;
    }
    return { red, blue, total: data.length / 4 };
  }, screenshot.toString('base64'));
}

test('the avatar is shown cropped to its zone, never overflowing, with no CSP violation', { timeout: 60_000 }, async (t) => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: \`make test\` installs Debian's chromium`);
  const server = await withServer(t);
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  // A 60x40 image, blue but for the zone (x 20, y 10, 16 x 16) painted red, with one red pixel of margin so
  // that smoothing at the zone's edge blends red with red: any blue on the page means the crop is wrong.
  const zone = { x: 20, y: 10, width: 16, height: 16 };
  const image = paintedPng(60, 40, (x, y) => (x >= zone.x - 1 && x <= zone.x + zone.width && y >= zone.y - 1 && y <= zone.y + zone.height ? RED : BLUE));
  const wide = { x: 5, y: 5, width: 30, height: 15 };
  const avatars = [];
  for (const chosen of [zone, wide]) {
    const uploaded = await call(server, 'POST', `/users/${alice.userId}/avatar`, { token: alice.token, body: multipart(avatarForm(image, chosen)), headers: { 'content-type': MULTIPART_TYPE } });
    assert.equal(uploaded.status, 201, uploaded.text);
    avatars.push(uploaded.body);
  }
  const login = await call(server, 'POST', '/session', { json: { login: 'alice', password: 'alice password' } });
  const token = String(login.headers['set-cookie']).split(';')[0]!.split('=')[1]!;

  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  t.after(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
  await context.addCookies([{ name: 'session', value: token, url: server.url }]);
  const page = await context.newPage();
  const problems: string[] = [];
  // A CSP violation is reported as a console error; the browser's own /favicon.ico request is not ours.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) problems.push(`${message.text()} ${message.location().url}`);
  });
  // Every signed-in page follows the event stream (docs/html.md): leaving the page aborts it, which is no failure.
  page.on('requestfailed', (request) => {
    if (request.url() !== `${server.url}/events` || request.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`${request.url()} failed`);
  });

  const single = await page.goto(`${server.url}/users/${alice.userId}/avatar/${avatars[0].id}`);
  assert.equal(single?.status(), 200);
  const svg = page.locator('main svg.avatar').first();
  await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('svg.avatar image').length > 0);
  // The box is the zone's shape at 96 CSS pixels, and the image in it has loaded and shows the zone only.
  const box = await svg.boundingBox();
  assert.deepEqual([box?.width, box?.height], [96, 96]);
  const blank = await context.newPage();
  let colours = { red: 0, blue: 0, total: 0 };
  // The image arrives asynchronously: wait until the box shows it (no longer transparent), then look.
  for (let attempt = 0; colours.red === 0 && attempt < 50; attempt++) {
    colours = await countColours(blank, await svg.screenshot());
    // The next frame (the event stream keeps the network busy, so never 'networkidle').
    if (colours.red === 0) await page.evaluate(() => new Promise((resolve) => (globalThis as any).requestAnimationFrame(resolve)));
  }
  assert.equal(colours.blue, 0, 'nothing outside the zone shows');
  assert.ok(colours.red >= colours.total * 0.95, `the zone fills the box (${colours.red} of ${colours.total} pixels red)`);

  // The list shows every avatar the same way; a wide zone gets a wide box; nothing overflows a 320 px screen.
  const list = await page.goto(`${server.url}/users/${alice.userId}/avatar`);
  assert.equal(list?.status(), 200);
  const boxes = await page.locator('main ul.avatars svg.avatar').evaluateAll((elements) => elements.map((element) => {
    const rect = element.getBoundingClientRect();
    return [rect.width, rect.height];
  }));
  assert.deepEqual(boxes.sort(), [[96, 48], [96, 96]]);
  const overflow = await page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
  assert.ok(overflow <= 0 || (await page.locator('.table').count()) > 0, 'only the table may scroll sideways, inside its own box');
  assert.deepEqual(problems, [], 'no CSP violation or failed image');
});
