// The "Add a member" list of a chat's members page, as a person sees it: logins and avatars, never a user's id (docs/html.md).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { png } from '../http/avatar-fixtures.ts';
import { call, registerAndLogIn, withServer } from '../http/client.ts';
import { CHROMIUM, follow, launch, openPerson, signUpAndLogIn } from './people.ts';

test('the members page names the people one may add by login and avatar; no id is visible anywhere on it', { timeout: 120_000 }, async (t) => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: \`make test\` installs Debian's chromium`);
  const server = await withServer(t, { host: '127.0.0.1', port: 0 });
  const bob = await registerAndLogIn(server, 'bob', 'bob password');
  const carol = await registerAndLogIn(server, 'carol', 'carol password');
  const avatar = await call(server, 'POST', `/users/${carol.userId}/avatar`, { token: carol.token, json: { avatar: png(40, 40).toString('base64'), x: 0, y: 0, width: 40, height: 40 } });
  assert.equal(avatar.status, 201, avatar.text);
  assert.equal((await call(server, 'PATCH', '/users', { token: carol.token, json: { avatar: avatar.body.id } })).status, 200);

  const browser = await launch();
  t.after(() => browser.close());
  const alice = await openPerson(browser, false);
  await signUpAndLogIn(alice, server.url, 'alice', 'alice password');
  const { page } = alice;
  await page.getByLabel('Title').fill('Book club');
  await follow(page, page.getByRole('button', { name: 'Create chat' }));
  const chatPath = /^\/chats\/([^/]+)\//.exec(new URL(page.url()).pathname);
  assert.ok(chatPath, page.url());
  await page.goto(`${server.url}/chats/${chatPath[1]}/members`);

  const adding = page.getByRole('region', { name: 'Add a member' });
  const people = adding.getByRole('listitem');
  assert.deepEqual((await people.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim()), ['bob Add', 'carol Add']);
  assert.equal(await adding.getByRole('link', { name: 'carol' }).locator('svg.avatar').count(), 1, 'carol\'s avatar beside her login');
  // Alice's own id is in the members list's folded "All fields" table (docs/html.md), which shows only when opened.
  const aliceId = (await page.getByRole('link', { name: 'alice' }).first().getAttribute('href'))?.replace('/users/', '');
  assert.match(aliceId ?? '', /^[0-9A-Z]{26}$/);
  const visible = await page.locator('body').innerText();
  for (const id of [aliceId!, bob.userId, carol.userId]) assert.ok(!visible.includes(id), `the id ${id} is visible: ${visible}`);

  // The button adds the person it names, who then shows among the members.
  await follow(page, adding.getByRole('button', { name: 'Add carol' }));
  await page.goto(`${server.url}/chats/${chatPath[1]}/members`);
  assert.deepEqual((await page.getByRole('region', { name: 'Add a member' }).getByRole('listitem').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim()), ['bob Add']);
  assert.ok((await page.locator('ul.people').first().innerText()).includes('carol'));
  assert.deepEqual(alice.problems, []);
});
