// The HTML pages of tokens, bots and webhooks (docs/html.md, Integrations): forms that work without scripts, a new
// secret shown once on its own page, revocation, and a webhook's deliveries as a page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, withServer, type TestResponse } from './client.ts';

const FORM = 'application/x-www-form-urlencoded';
const UNCHECKED = 'an HTML form post (docs/protocol.md §7.3) is outside the OpenAPI document, which describes the JSON exchange';
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

async function browser(server: RunningServer, login: string): Promise<{ cookie: string; userId: string; token: string }> {
  const user = await registerAndLogIn(server, login, `${login} password`);
  const res = await call(server, 'POST', '/session', { body: new URLSearchParams({ login, password: `${login} password` }).toString(), headers: { 'content-type': FORM, origin: server.url } });
  return { cookie: String(res.headers['set-cookie']).split(';')[0]!, userId: user.userId, token: user.token };
}

function submit(server: RunningServer, cookie: string, path: string, fields: [string, string][]): Promise<TestResponse> {
  return call(server, 'POST', path, { body: new URLSearchParams(fields).toString(), headers: { 'content-type': FORM, origin: server.url, cookie, accept: HTML }, unchecked: UNCHECKED });
}

function page(server: RunningServer, cookie: string, path: string): Promise<TestResponse> {
  return call(server, 'GET', path, { headers: { cookie, accept: HTML } });
}

test('tokens page: make a token (shown once on its page), revoke it; make a bot, which lands on its tokens page', async (t) => {
  const server = await withServer(t);
  const alice = await browser(server, 'alice');
  const tokens = `/users/${alice.userId}/tokens`;
  const empty = await page(server, alice.cookie, tokens);
  assert.equal(empty.status, 200);
  assert.match(empty.text, /<h1[^>]*>Access tokens<\/h1>/);
  assert.match(empty.text, /No tokens yet\./);
  assert.match(empty.text, /Create bot/);
  const made = await submit(server, alice.cookie, tokens, [['name', 'CI'], ['scopes', 'read'], ['expiresAt', ''], ['_back', tokens]]);
  assert.equal(made.status, 201, made.text.slice(0, 400));
  const secret = /value="(chat_pat_[A-Za-z0-9_-]+)"/.exec(made.text)?.[1];
  assert.ok(secret, 'the token is on the page');
  assert.equal((await call(server, 'GET', '/chats', { token: secret })).status, 200);
  const listed = await page(server, alice.cookie, tokens);
  assert.ok(!listed.text.includes(secret!), 'never shown again');
  assert.match(listed.text, /CI: read, never used|CI: read, last used/);
  const tokenId = (await call(server, 'GET', tokens, { token: alice.token })).body.data[0].id;
  const revoked = await submit(server, alice.cookie, `${tokens}/${tokenId}`, [['_method', 'DELETE'], ['_back', tokens]]);
  assert.equal(revoked.status, 303);
  assert.equal((await call(server, 'GET', '/chats', { token: secret })).status, 401);
  const bot = await submit(server, alice.cookie, '/bots', [['login', 'deploy-bot']]);
  assert.equal(bot.status, 303);
  assert.match(String(bot.headers.location), /^\/users\/[A-Za-z0-9_-]+\/tokens$/);
  const botPage = await page(server, alice.cookie, String(bot.headers.location));
  assert.equal(botPage.status, 200);
  assert.doesNotMatch(botPage.text, /Create bot/, 'a bot makes no bots');
});

test('webhooks page: make an incoming webhook (its URL shown once), see it listed, delete it; deliveries as a page', async (t) => {
  const server = await withServer(t, { webhookAllowPrivate: true });
  const alice = await browser(server, 'alice');
  const chatId = (await call(server, 'POST', '/chats', { token: alice.token, json: { data: { title: 'Ops' } } })).body.data.id;
  const hooks = `/chats/${chatId}/webhooks`;
  assert.match((await page(server, alice.cookie, hooks)).text, /No webhooks yet\./);
  const made = await submit(server, alice.cookie, hooks, [['name', 'Deploys'], ['direction', 'incoming'], ['_back', hooks]]);
  assert.equal(made.status, 201, made.text.slice(0, 400));
  const url = /value="(http:\/\/[^"]+\/hooks\/[A-Za-z0-9_-]+)"/.exec(made.text)?.[1];
  assert.ok(url, 'the secret URL is on the page');
  assert.equal((await call(server, 'POST', new URL(url!).pathname, { json: { text: 'from the page' } })).status, 201);
  const out = await submit(server, alice.cookie, hooks, [['name', 'Out'], ['direction', 'outgoing'], ['url', 'http://127.0.0.1:9/x'], ['events', 'message.created reaction.added'], ['trigger', 'all'], ['_back', hooks]]);
  assert.equal(out.status, 201, out.text.slice(0, 400));
  assert.match(out.text, /value="whsec_[A-Za-z0-9+/=]+"/);
  const listed = await page(server, alice.cookie, hooks);
  assert.match(listed.text, /Deploys<\/a>, incoming/);
  assert.match(listed.text, /Deliveries/);
  const hookId = (await call(server, 'GET', hooks, { token: alice.token })).body.data.find((hook: { direction: string }) => hook.direction === 'outgoing').id;
  const deliveries = await page(server, alice.cookie, `${hooks}/${hookId}/deliveries`);
  assert.equal(deliveries.status, 200);
  const deleted = await submit(server, alice.cookie, `${hooks}/${hookId}`, [['_method', 'DELETE'], ['_back', hooks]]);
  assert.equal(deleted.status, 303);
});
