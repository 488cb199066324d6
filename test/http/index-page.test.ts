// GET /: the index as JSON and XML (links to every collection and service document) and, as HTML, the landing page with its forms.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { serverVersion } from '../../src/version.ts';
import { call, registerAndLogIn, withServer } from './client.ts';

const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };

function expectedLinks(prefix: string): Record<string, string> {
  const paths = { chats: '/chats', users: '/users', session: '/session', search: '/search', events: '/events', openapi: '/openapi.json', docs: '/docs', health: '/health' };
  return Object.fromEntries(Object.entries(paths).map(([rel, path]) => [rel, `${prefix}${path}`]));
}

test('GET / answers JSON links to the collections and service documents, needing no token, with an ETag', async (t) => {
  const server = await withServer(t);
  const res = await call(server, 'GET', '/');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.deepEqual(res.body, { name: 'Chat API', version: serverVersion(), links: expectedLinks('') });
  assert.equal((await call(server, 'GET', '/', { headers: { 'if-none-match': String(res.headers['etag']) } })).status, 304);
  const options = await call(server, 'OPTIONS', '/');
  assert.deepEqual([options.status, options.headers['allow']], [204, 'OPTIONS, GET, HEAD']);
  assert.equal((await call(server, 'POST', '/')).status, 405);
  // Every link that exists today answers; /events and /docs are the contract's entry points still being built.
  const alice = await registerAndLogIn(server);
  for (const rel of ['chats', 'users', 'session', 'openapi', 'health']) {
    assert.equal((await call(server, 'GET', String(res.body.links[rel]), { token: alice.token })).status, 200, rel);
  }
});

test('with --base-path every link carries the prefix, and the bare / is a 404', async (t) => {
  const server = await withServer(t, { basePath: '/api' });
  for (const path of ['/api', '/api/']) {
    const res = await call(server, 'GET', path);
    assert.equal(res.status, 200, path);
    assert.deepEqual(res.body.links, expectedLinks('/api'));
  }
  assert.equal((await call(server, 'GET', '/')).status, 404);
});

test('the index as XML: the same fields, and each link as an Atom link', async (t) => {
  const server = await withServer(t);
  const res = await call(server, 'GET', '/', { headers: { accept: 'application/xml' } });
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(res.text);
  assert.equal(parsed.index.name, 'Chat API');
  assert.deepEqual(parsed.index.links, expectedLinks(''));
  const atom = (parsed.index['atom:link'] as { rel: string; href: string }[]).map(({ rel, href }) => [rel, href]);
  assert.deepEqual(Object.fromEntries(atom), expectedLinks(''));
});

test('the landing page speaks to people: log in, join, and the API one link away; JSON clients of / see no change', async (t) => {
  const server = await withServer(t, { basePath: '/api' });
  const res = await call(server, 'GET', '/api/', { headers: { accept: 'text/html' } });
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
  assert.match(res.text, /<title>Chat<\/title>/, 'the landing page is titled by the server\'s name alone');
  assert.match(res.text, /<h1 dir="auto">Chat<\/h1>\n<p class="lede">Chat is where your team talks/);
  assert.match(res.text, /<div class="doors">\n<section aria-labelledby="login-heading">\n<h2 id="login-heading">Log in<\/h2>/);
  assert.match(res.text, /<h2 id="signup-heading">New here\? Sign up<\/h2>/);
  assert.match(res.text, /<form method="post" action="\/api\/session" enctype="application\/x-www-form-urlencoded">/);
  assert.match(res.text, /<form method="post" action="\/api\/users" enctype="application\/x-www-form-urlencoded">/);
  assert.match(res.text, /<input id="signup-login" name="login"/);
  assert.match(res.text, /<input id="signup-password" name="password" type="password" autocomplete="new-password"/);
  assert.match(res.text, /<h2 id="developers-heading">For developers<\/h2>\n<p>Every page here is also a resource of the Chat API, an HTTP API .*<a href="\/api\/docs">API reference<\/a> or its <a href="\/api\/openapi.json">OpenAPI description<\/a>/);
  // The index's entry points stay on the page, folded: the page is still the resource's representation.
  const folded = /<details><summary>The API's entry points<\/summary><ul>(.*)<\/ul><\/details>/.exec(res.text);
  assert.ok(folded !== null);
  for (const href of Object.values(expectedLinks('/api'))) assert.ok(folded[1]!.includes(`href="${href}"`), href);
  assert.doesNotMatch(res.text, /style=/, 'no inline style attributes: the CSP allows only the hashed stylesheet');
  const json = await call(server, 'GET', '/api/');
  assert.deepEqual(json.body, { name: 'Chat API', version: serverVersion(), links: expectedLinks('/api') });
});

test('signing up through the form signs the new person in and lands in their chats; the JSON API does not log in', async (t) => {
  const server = await withServer(t);
  const FORM = { ...FORM_TYPE, accept: 'text/html', origin: server.url };
  const signUp = await call(server, 'POST', '/users', { headers: FORM, body: new URLSearchParams({ login: 'newcomer', password: 'first hour!' }).toString() });
  assert.equal(signUp.status, 303);
  assert.equal(signUp.headers['location'], '/chats');
  assert.match(String(signUp.headers['set-cookie']), /^session=[^;]+; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+$/);
  const cookie = String(signUp.headers['set-cookie']).split(';')[0]!;
  const chats = await call(server, 'GET', '/chats', { headers: { accept: 'text/html', cookie } });
  assert.equal(chats.status, 200);
  assert.match(chats.text, /Signed in as .*newcomer/);
  const landing = await call(server, 'GET', '/', { headers: { accept: 'text/html', cookie } });
  assert.equal(landing.status, 200);
  assert.match(landing.text, /<p><a class="button-link" href="\/chats">Open your chats<\/a><\/p>/);
  assert.doesNotMatch(landing.text, /action="\/users"/);
  assert.equal(landing.text.match(/role="search"/g)?.length, 1, 'one search box: the header\'s');
  // The session is an ordinary one: it is listed, and logging in again works as before.
  const session = await call(server, 'GET', '/session', { headers: { cookie } });
  assert.equal(session.status, 200);
  const logIn = await call(server, 'POST', '/session', { headers: FORM, body: new URLSearchParams({ login: 'newcomer', password: 'first hour!' }).toString() });
  assert.deepEqual([logIn.status, logIn.headers['location']], [303, '/chats']);

  // A browser already signed in (an admin making an account for someone) stays who it is, and sees the new account.
  const other = await call(server, 'POST', '/users', { headers: { ...FORM, cookie }, body: 'login=second&password=password2' });
  assert.equal(other.status, 303);
  assert.match(String(other.headers['location']), /^\/users\/[^/]+$/);
  assert.equal(other.headers['set-cookie'], undefined);

  const api = await call(server, 'POST', '/users', { json: { login: 'apiclient', password: 'password1' } });
  assert.equal(api.status, 201);
  assert.equal(api.headers['set-cookie'], undefined, 'registration through the API does not log in (protocol §2.1)');
});

test('a broken rule shows the sign-up form again with the message beside its field and the contract\'s status', async (t) => {
  const server = await withServer(t);
  const FORM = { ...FORM_TYPE, accept: 'text/html', origin: server.url };
  const short = await call(server, 'POST', '/users', { headers: FORM, body: new URLSearchParams({ login: '<b>"x"</b>', password: 'short' }).toString() });
  assert.equal(short.status, 400);
  assert.equal(short.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(short.text, /aria-describedby="signup-login-error"/);
  assert.match(short.text, /<span class="error" id="signup-login-error" role="alert">login may hold only letters, digits, &quot;\.&quot;, &quot;_&quot; and &quot;-&quot;<\/span>/);
  assert.match(short.text, /<p class="error">Not signed up: 400 Validation failed<\/p>/, 'the status, as on an error page');
  assert.ok(short.text.includes('value="&lt;b&gt;&quot;x&quot;&lt;/b&gt;"'), 'the login as typed, escaped');
  assert.doesNotMatch(short.text, /<b>"x"/);

  await call(server, 'POST', '/users', { json: { login: 'taken', password: 'password1' } });
  const taken = await call(server, 'POST', '/users', { headers: FORM, body: 'login=TAKEN&password=password1' });
  assert.equal(taken.status, 409);
  assert.match(taken.text, /Not signed up: 409 Login already taken/);
  assert.match(taken.text, /<span class="error" id="signup-login-error" role="alert">login is already taken<\/span>/);
  assert.match(taken.text, /value="TAKEN"/);
  const unknown = await call(server, 'POST', '/users', { headers: FORM, body: 'login=someone&password=password1&admin=1' });
  assert.equal(unknown.status, 400);
  assert.match(unknown.text, /<p class="error" role="alert">admin: is not a known field<\/p>/);

  // A form post that does not accept HTML gets the problem document.
  const json = await call(server, 'POST', '/users', { headers: { ...FORM_TYPE, origin: server.url }, body: 'login=ab&password=password1' });
  assert.equal(json.status, 400);
  assert.equal(json.headers['content-type'], 'application/problem+json');
  assert.deepEqual(json.body.errors, [{ field: 'login', message: 'must be 3 to 32 characters' }]);
  assert.equal((await call(server, 'POST', '/users', { headers: { 'content-type': 'text/plain' }, body: 'x' })).status, 415);
});

test('the sign-up form is taken only from this server\'s own origin, like the login form (no cross-site sign-ups)', async (t) => {
  const server = await withServer(t);
  for (const origin of [undefined, 'http://evil.example']) {
    const headers: Record<string, string> = { ...FORM_TYPE, accept: 'text/html' };
    if (origin !== undefined) headers['origin'] = origin;
    const res = await call(server, 'POST', '/users', { headers, body: 'login=victim&password=password1' });
    assert.equal(res.status, 403, String(origin));
    assert.match(res.text, /ERR_CSRF/);
  }
  const alice = await registerAndLogIn(server);
  const users = await call(server, 'GET', '/users?login=victim', { token: alice.token });
  assert.equal(users.body.meta.total, 0, 'no account was created');
});
