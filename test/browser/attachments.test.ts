// In Chromium, a person attaches an image and a PDF with the composer's file input (no script needed) and sees them:
// the image inline at its size, the PDF as a link with its name and size that downloads it.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { paintedPng } from '../http/avatar-fixtures.ts';
import { call, registerAndLogIn, withServer } from '../http/client.ts';
import { assertAccessible, assertNoHorizontalOverflow, CHROMIUM, follow, launch, openPerson, screenshot, submit } from './people.ts';

// A one-page PDF as a PDF viewer would accept it; the server stores it as bytes to save.
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n'
  + '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

for (const javaScriptEnabled of [false, true]) {
  test(`an image and a PDF posted from the composer show in the chat (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, { timeout: 90_000 }, async (t) => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: \`make test\` installs Debian's chromium`);
    const server = await withServer(t);
    const alice = await registerAndLogIn(server, 'alice', 'alice password');
    const chat = (await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Screenshots' } } })).body.data;
    const login = await call(server, 'POST', '/session', { json: { login: 'alice', password: 'alice password' } });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!.split('=')[1]!;

    const browser = await launch();
    t.after(() => browser.close());
    const person = await openPerson(browser, javaScriptEnabled, 480);
    await person.context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    const { page, problems } = person;
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) problems.push(`${message.text()} ${message.location().url}`);
    });
    await page.goto(`${server.url}/chats/${chat.id}/messages`);
    await page.fill('#compose-text', 'The screenshot and the report');
    const screen = { name: 'screen.png', mimeType: 'image/png', buffer: paintedPng(640, 360, (x) => (x < 320 ? [200, 40, 40] : [40, 40, 200])) };
    const report = { name: 'report.pdf', mimeType: 'application/pdf', buffer: PDF };
    if (javaScriptEnabled) {
      // With the script, a file pasted into the message joins the chosen ones.
      await page.setInputFiles('#compose-file', [screen]);
      const count = await page.evaluate((base64) => {
        const { document, DataTransfer, ClipboardEvent, File, atob } = globalThis as any;
        const pasted = new DataTransfer();
        pasted.items.add(new File([Uint8Array.from(atob(base64), (c: string) => c.charCodeAt(0))], 'report.pdf', { type: 'application/pdf' }));
        document.querySelector('#compose-text').dispatchEvent(new ClipboardEvent('paste', { clipboardData: pasted, bubbles: true, cancelable: true }));
        return document.querySelector('#compose-file').files.length;
      }, PDF.toString('base64'));
      assert.equal(count, 2);
    } else {
      await page.setInputFiles('#compose-file', [screen, report]);
    }
    const image = page.locator('ol.messages ul.attachments img');
    await submit(page, page.getByRole('button', { name: 'Send' }), javaScriptEnabled, () => image.waitFor());
    assert.equal(new URL(page.url()).pathname, `/chats/${chat.id}/messages`);
    assert.equal(await image.getAttribute('alt'), 'screen.png');
    assert.deepEqual([await image.getAttribute('width'), await image.getAttribute('height')], ['640', '360']);
    // Loaded (under the page's CSP) and scaled down to fit the 480 px window, keeping its shape.
    await page.waitForFunction(() => (globalThis as any).document.querySelector('ol.messages ul.attachments img').naturalWidth === 640);
    const box = await image.boundingBox();
    assert.ok(box !== null && box.width < 480 && Math.abs(box.width / box.height - 640 / 360) < 0.02, `image box ${JSON.stringify(box)}`);

    const link = page.locator('ol.messages ul.attachments li.file a');
    assert.equal(await link.textContent(), 'report.pdf');
    assert.equal(await link.getAttribute('download'), 'report.pdf');
    assert.equal(await page.locator('ol.messages ul.attachments li.file .size').textContent(), `(${PDF.length} bytes)`);
    const download = await page.request.get(`${server.url}${await link.getAttribute('href')}`);
    assert.equal(download.status(), 200);
    assert.equal(download.headers()['content-disposition'], 'attachment; filename="report.pdf"; filename*=UTF-8\'\'report.pdf');
    assert.ok((await download.body()).equals(PDF));

    // axe-core and the layout check run scripts in the page: only where the page may run them.
    if (javaScriptEnabled) {
      await assertAccessible(page, 'the chat with files');
      await assertNoHorizontalOverflow(page, 'the chat with files');
    }
    await screenshot(page, `attachments-js-${javaScriptEnabled ? 'on' : 'off'}.png`);
    assert.deepEqual(problems, []);
  });
}
