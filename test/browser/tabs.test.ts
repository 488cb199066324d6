// One stream for all tabs (docs/html.md#one-stream-for-all-tabs): ten tabs of one person hold one /events connection
// and every tab is live; the leader's tab closes during another person's burst and every other tab still gets every
// message once, in order (the next leader resumes with ?after=, the tabs drop what they already have by id).
import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, withServer } from '../http/client.ts';
import { launch, logIn, openPerson, type Person } from './people.ts';

const TABS = 10;
const BURST = 20;

/** Runs in every tab before its own script: keeps what the stream part dispatched, in order. */
const RECORD_EVENTS = `window.chatEvents = [];
document.addEventListener('chat:event', ({ detail }) => window.chatEvents.push(detail));`;

// One Chromium for the file's tests, each with its own browser context (its own locks, channels and cookies).
let browser: Browser;
before(async () => { browser = await launch(); });
after(() => browser.close());

interface Recorded { type: string; event: { chatId: string | null; data: { id?: string } } }

/** The ids of the messages created in the chat that the tab's stream part dispatched, in order. */
async function readCreated(page: Page, chatId: string): Promise<string[]> {
  const events = await page.evaluate('window.chatEvents') as Recorded[];
  return events.filter((detail) => detail.type === 'message.created' && detail.event.chatId === chatId).map((detail) => detail.event.data.id!);
}

async function waitFor(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`waited 15 s for ${what}`);
}

/** Holds back every /events request of the context until `release`; `asked` is each one's query, in order. */
async function holdStreams(context: BrowserContext): Promise<{ asked: string[]; release: () => void }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  const asked: string[] = [];
  await context.route(/\/events(\?|$)/, async (route) => {
    asked.push(new URL(route.request().url()).search);
    await held;
    await route.continue();
  });
  return { asked, release };
}

/** A server, alice signed in to it in a browser context of her own (`script` run first on each page), and her chat. */
async function openAlone(t: TestContext, script: string): Promise<{ server: RunningServer; alice: Awaited<ReturnType<typeof registerAndLogIn>>; chatId: string; person: Person }> {
  const server = await withServer(t, { host: '127.0.0.1', port: 0 });
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const chatId: string = (await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Alone' } } })).body.data.id;
  const person = await openPerson(browser);
  t.after(() => person.context.close());
  await logIn(person, server.url, 'alice', 'alice password');
  await person.context.addInitScript(script);
  return { server, alice, chatId, person };
}

test('ten tabs share one event stream; the leader\'s tab closes during a burst and no tab loses or repeats a message', { timeout: 120_000 }, async (t) => {
  const server = await withServer(t, { host: '127.0.0.1', port: 0 });
  const alice = await registerAndLogIn(server, 'alice', 'alice password');
  const bob = await registerAndLogIn(server, 'bob', 'bob password');
  const chatId: string = (await call(server, 'POST', '/chats', { token: bob.token, json: { data: { title: 'Tabs', members: [alice.userId] } } })).body.data.id;
  const person = await openPerson(browser);
  t.after(() => person.context.close());
  await logIn(person, server.url, 'alice', 'alice password');
  await person.context.addInitScript(RECORD_EVENTS);
  // Half the tabs on the chat, half on pages with nothing live: every signed-in page joins the one stream.
  const tabs = [person.page];
  while (tabs.length < TABS) tabs.push(await person.context.newPage());
  const errors: string[] = [];
  for (const [index, page] of tabs.entries()) {
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}${index % 2 === 0 ? `/chats/${chatId}/messages` : '/chats'}`);
  }
  const events = server.app.services.events;
  const roles = () => Promise.all(tabs.filter((page) => !page.isClosed()).map((page) => page.evaluate('document.body.dataset.eventStream') as Promise<string | undefined>));
  await waitFor('one tab to lead', async () => (await roles()).filter((role) => role === 'leader').length === 1 && events.streamCount(alice.userId) === 1);
  assert.deepEqual((await roles()).sort(), [...Array<string>(TABS - 1).fill('follower'), 'leader']);
  assert.equal(events.streamCount(alice.userId), 1, 'one /events connection for ten tabs');

  const posted: string[] = [];
  const post = async (text: string) => {
    const created = await call(server, 'POST', `/chats/${chatId}/messages`, { token: bob.token, json: { data: { text } } });
    assert.equal(created.status, 201);
    posted.push(created.body.data.id);
  };
  await post('Hello, every tab');
  await waitFor('every tab to get the first message', async () => (await Promise.all(tabs.map((page) => readCreated(page, chatId)))).every((ids) => ids.length === 1));
  await tabs[0]!.locator('ol.messages > li', { hasText: 'Hello, every tab' }).waitFor();

  // Bob's burst; alice's leading tab closes in the middle of it. The next leader's stream is held back until the burst
  // is over, so the second half is posted while no tab has a stream: only the resume id brings it.
  const { asked: resumed, release } = await holdStreams(person.context);
  const leader = tabs[(await roles()).indexOf('leader')]!;
  let closing: Promise<void> | undefined;
  for (let index = 0; index < BURST; index++) {
    if (index === BURST / 2) closing = leader.close();
    await post(`Burst ${index}`);
  }
  await closing;
  await waitFor('the closed tab\'s stream to end', () => events.streamCount(alice.userId) === 0);
  release();
  const open = tabs.filter((page) => !page.isClosed());
  await waitFor('every open tab to get the whole burst', async () => (await Promise.all(open.map((page) => readCreated(page, chatId)))).every((ids) => ids.length >= posted.length));
  for (const page of open) assert.deepEqual(await readCreated(page, chatId), posted, 'every message once, in order');

  // An old leader's relay that comes late (after the next leader's replay brought the same event) is dropped by its id.
  await open[0]!.evaluate(`new BroadcastChannel('chat-events:${alice.userId}').postMessage({ detail: window.chatEvents.find((detail) => detail.event.data.id === '${posted[BURST / 2]}') })`);
  await post('After the handover');
  await waitFor('every open tab to get the last message', async () => (await Promise.all(open.map((page) => readCreated(page, chatId)))).every((ids) => ids.length >= posted.length));
  for (const page of open) assert.deepEqual(await readCreated(page, chatId), posted, 'a late relay is not shown again');
  await waitFor('the next leader alone to hold a stream', async () => events.streamCount(alice.userId) === 1);
  assert.equal(resumed.length, 1, 'one tab took the stream over');
  assert.match(resumed[0]!, /^\?after=[0-9]+$/, 'and resumed after the newest id it had');
  assert.deepEqual((await roles()).sort(), [...Array<string>(TABS - 2).fill('follower'), 'leader']);
  assert.deepEqual(errors, []);
});

test('without Web Locks each tab with something live opens a stream of its own, and a page with nothing live none', { timeout: 60_000 }, async (t) => {
  // A browser without the Web Locks API, as on a plain-HTTP origin other than localhost (not a secure context).
  const { server, alice, chatId, person } = await openAlone(t, `Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined }); ${RECORD_EVENTS}`);
  const tabs = [person.page, await person.context.newPage(), await person.context.newPage()];
  for (const [index, page] of tabs.entries()) await page.goto(`${server.url}${index < 2 ? `/chats/${chatId}/messages` : '/chats'}`);
  const events = server.app.services.events;
  await waitFor('both chat tabs to open their own stream', () => events.streamCount(alice.userId) === 2);
  assert.deepEqual(await Promise.all(tabs.map((page) => page.evaluate('document.body.dataset.eventStream'))), ['own', 'own', undefined]);
  await call(server, 'POST', `/chats/${chatId}/messages`, { token: alice.token, json: { data: { text: 'Seen twice, once in each tab' } } });
  await waitFor('each chat tab to get the message once', async () => (await Promise.all(tabs.slice(0, 2).map((page) => readCreated(page, chatId)))).every((ids) => ids.length === 1));
  assert.deepEqual(person.problems, []);
});

test('a leader whose stream is refused lets the lock go, and the next tab takes the stream over', { timeout: 60_000 }, async (t) => {
  const { server, alice, chatId, person } = await openAlone(t, RECORD_EVENTS);
  // The first stream asked for is refused as a session that ended would be; the next goes through.
  let refusals = 0;
  await person.context.route(/\/events(\?|$)/, (route) => refusals++ === 0 ? route.fulfill({ status: 401 }) : route.continue());
  const tabs = [person.page, await person.context.newPage()];
  for (const page of tabs) await page.goto(`${server.url}/chats/${chatId}/messages`);
  const events = server.app.services.events;
  await waitFor('the second tab to hold the stream', () => events.streamCount(alice.userId) === 1);
  await call(server, 'POST', `/chats/${chatId}/messages`, { token: alice.token, json: { data: { text: 'Through the next leader' } } });
  await waitFor('both tabs to get the message', async () => (await Promise.all(tabs.map((page) => readCreated(page, chatId)))).every((ids) => ids.length === 1));
  assert.equal(refusals, 2, 'one refused stream, one that went through');
  assert.deepEqual(person.problems, []);
});

test('a stream that cannot resume (reset) makes every tab re-read what it shows, then go on live', { timeout: 60_000 }, async (t) => {
  const { server, alice, chatId, person } = await openAlone(t, RECORD_EVENTS);
  const tabs = [person.page, await person.context.newPage()];
  for (const page of tabs) await page.goto(`${server.url}/chats/${chatId}/messages`);
  const events = server.app.services.events;
  const roles = () => Promise.all(tabs.filter((page) => !page.isClosed()).map((page) => page.evaluate('document.body.dataset.eventStream') as Promise<string>));
  await waitFor('one tab to lead', async () => (await roles()).includes('leader') && events.streamCount(alice.userId) === 1);
  const leader = tabs[(await roles()).indexOf('leader')]!;
  const follower = tabs.find((page) => page !== leader)!;
  // The follower comes to hold a resume id the server cannot honour (as after a night past the log's retention, or
  // with a server whose log began again); its stream is held back while a message is posted that no tab hears.
  await leader.evaluate(`new BroadcastChannel('chat-events:${alice.userId}').postMessage({ resume: '99999999999' })`);
  const { asked, release } = await holdStreams(person.context);
  await leader.close();
  await waitFor('the leader\'s stream to end', () => events.streamCount(alice.userId) === 0);
  await call(server, 'POST', `/chats/${chatId}/messages`, { token: alice.token, json: { data: { text: 'Posted while no tab listened' } } });
  await follower.locator('textarea#compose-text').fill('a draft');
  release();
  await follower.locator('ol.messages > li', { hasText: 'Posted while no tab listened' }).waitFor({ timeout: 15_000 });
  assert.deepEqual(asked, ['?after=99999999999'], 'the follower took the stream over with the id it held');
  assert.equal(await follower.locator('textarea#compose-text').inputValue(), 'a draft', 'the screen was re-read in place, the draft kept');
  await call(server, 'POST', `/chats/${chatId}/messages`, { token: alice.token, json: { data: { text: 'Live again' } } });
  await follower.locator('ol.messages > li', { hasText: 'Live again' }).waitFor({ timeout: 15_000 });
  assert.equal(asked.length, 1, 'one stream: the reset did not make it reconnect');
  assert.deepEqual(person.problems, []);
});
