// The chat screen's byte budget (issue #34; docs/performance.md, "The chat screen in the browser"): the first screen of a
// chat, HTML with its CSS and JS, is at most 50 KB over the wire, as Chromium counts it. Bytes, not time: a test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, registerAndLogIn, withServer } from '../http/client.ts';
import { launch, logIn, openPerson } from './people.ts';

const BUDGET = 50 * 1024;
const KINDS = new Set(['Document', 'Stylesheet', 'Script']);

test('the first chat screen is at most 50 KB of HTML, CSS and JS over the wire', { timeout: 60_000 }, async (t) => {
  const server = await withServer(t, { host: '127.0.0.1', port: 0 });
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const bob = await registerAndLogIn(server, 'bob', 'bob password');
  // A lived-in account: ten chats in the sidebar, the open one with more than a page of talk, replies and reactions.
  let chatId = '';
  for (let i = 1; i <= 10; i++) {
    const chat = await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: `Team chat number ${i}`, members: [bob.userId] } } });
    chatId = chat.body.data.id;
  }
  const path = `/chats/${chatId}/messages`;
  let last = '';
  for (let i = 1; i <= 30; i++) {
    const author = i % 3 === 0 ? bob : alice;
    const text = `Message ${i}: shall we meet at the station at ten, or is the afternoon better for everyone who comes along?`;
    const posted = await call(server, 'POST', path, { token: author.token, json: { data: i % 5 === 0 ? { text, replyTo: last } : { text } } });
    last = posted.body.data.id;
    if (i % 4 === 0) await call(server, 'PUT', `${path}/${last}/reactions/${encodeURIComponent('👍')}`, { token: bob.token });
  }
  const browser = await launch();
  t.after(() => browser.close());
  const person = await openPerson(browser, true, 1280);
  await logIn(person, server.url, 'alice', 'alice password');
  const cdp = await person.context.newCDPSession(person.page);
  await cdp.send('Network.enable');
  const kinds = new Map<string, string>();
  const sizes: { kind: string; url: string; bytes: number }[] = [];
  cdp.on('Network.responseReceived', (event) => kinds.set(event.requestId, `${event.type} ${event.response.url}`));
  cdp.on('Network.loadingFinished', (event) => {
    const [kind = '', url = ''] = (kinds.get(event.requestId) ?? '').split(' ');
    sizes.push({ kind, url, bytes: event.encodedDataLength });
  });
  const response = await person.page.goto(`${server.url}${path}`, { waitUntil: 'load' });
  assert.equal(response?.status(), 200);
  assert.equal(await response.headerValue('content-encoding'), 'gzip');
  const decoded = (await response.body()).length;
  // The document's loadingFinished may trail the load event by a task.
  for (let tries = 0; tries < 200 && !sizes.some((size) => size.kind === 'Document'); tries++) await new Promise((resolve) => setTimeout(resolve, 10));
  const counted = sizes.filter((size) => KINDS.has(size.kind));
  const total = counted.reduce((sum, size) => sum + size.bytes, 0);
  assert.ok(counted.some((size) => size.kind === 'Document'), 'the document was counted');
  assert.ok(total <= BUDGET, `${total} bytes over the wire (${decoded} decoded): ${JSON.stringify(counted)}`);
  t.diagnostic(`chat screen: ${total} bytes over the wire, ${decoded} bytes decoded`);
});
