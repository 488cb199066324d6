// docs/protocol.md §2: registration, login, credentials, cookies and the origin rule, the session, tokens.
import { PATHS } from '../../paths.ts';
import { expectEqual, expectHeader, expectMatch, expectNoHeader, expectProblem, expectStatus, expectTrue, readHeader, ISO_MS } from '../expect.ts';
import { check } from './define.ts';

function readCookie(setCookie: string | undefined): string {
  const match = /(?:^|\n)(session=[^;]*)/.exec(setCookie ?? '');
  return match ? match[1]! : '';
}

export const AUTH_CHECKS = [
  check('core.users.register-201', '§2.1', 'POST /users registers a user: 201, Location: /users/{id}, the user as body', async (ctx) => {
    const { signUp, login, id } = await ctx.user('alice');
    expectStatus(signUp, 201);
    expectHeader(signUp, 'location', ctx.prefixed(ctx.at(PATHS.user, { userId: id })));
    expectEqual(signUp.json?.login, login, 'login of the body');
  }),
  check('core.users.register-no-session', '§2.1', 'Registration MUST NOT log in', async (ctx) => {
    const { signUp } = await ctx.user('alice');
    expectNoHeader(signUp, 'set-cookie');
    expectEqual(signUp.json?.token, undefined, 'a token in the sign-up answer');
  }),
  check('core.users.login-taken-409', '§2.1', 'A login taken in any letter case answers 409 ERR_LOGIN_TAKEN naming login', async (ctx) => {
    const alice = await ctx.user('alice');
    const reply = await ctx.signUp({ login: alice.login.toUpperCase(), password: 'another good password' });
    expectProblem(reply, 409, 'ERR_LOGIN_TAKEN', 'login');
  }),
  check('core.session.login-201', '§2.2', 'POST /session logs in: 201, Location: /session, {token, userId, expiresAt, createdAt}, Cache-Control: no-store', async (ctx) => {
    const { login201, id } = await ctx.user('alice');
    expectStatus(login201, 201);
    expectHeader(login201, 'location', ctx.prefixed(PATHS.session));
    expectMatch(readHeader(login201, 'cache-control'), /\bno-store\b/, 'Cache-Control');
    expectEqual(login201.json?.userId, id, 'userId');
    expectMatch(login201.json?.expiresAt, ISO_MS, 'expiresAt');
    expectMatch(login201.json?.createdAt, ISO_MS, 'createdAt');
  }),
  check('core.session.login-any-case', '§2.2', 'Logins compare in any letter case', async (ctx) => {
    const bob = await ctx.user('bob');
    expectStatus(bob.login201, 201);
    expectEqual(bob.login201.json?.userId, bob.id, 'the session of bob, who logged in with his login in capitals');
  }),
  check('core.session.bad-credentials-401', '§2.2', 'A wrong login and a wrong password MUST get the same 401 ERR_BAD_CREDENTIALS', async (ctx) => {
    const carol = await ctx.user('carol');
    const wrongPassword = await ctx.call('POST', PATHS.session, { json: { login: carol.login, password: 'not the password at all' } });
    expectProblem(wrongPassword, 401, 'ERR_BAD_CREDENTIALS');
    const unknown = await ctx.call('POST', PATHS.session, { json: { login: ctx.unique('nobody'), password: 'not the password at all' } });
    expectProblem(unknown, 401, 'ERR_BAD_CREDENTIALS');
    expectEqual(unknown.json.detail, wrongPassword.json.detail, 'the detail of both answers');
  }),
  check('core.auth.required-401', '§2.3', 'No session: 401 ERR_UNAUTHENTICATED with WWW-Authenticate: Bearer realm="chat"', async (ctx) => {
    const reply = await ctx.call('GET', PATHS.chats);
    expectProblem(reply, 401, 'ERR_UNAUTHENTICATED');
    expectHeader(reply, 'www-authenticate', 'Bearer realm="chat"');
  }),
  check('core.auth.invalid-token-401', '§2.3', 'An unknown token: 401 with error="invalid_token"', async (ctx) => {
    const reply = await ctx.call('GET', PATHS.chats, { token: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expectProblem(reply, 401, 'ERR_UNAUTHENTICATED');
    expectMatch(readHeader(reply, 'www-authenticate'), /^Bearer realm="chat",\s*error="invalid_token"/, 'WWW-Authenticate');
  }),
  check('core.auth.malformed-header-401', '§2.3', 'A malformed Authorization header counts as an invalid token', async (ctx) => {
    const reply = await ctx.call('GET', PATHS.chats, { headers: { Authorization: 'Basic YWxpY2U6c2VjcmV0' } });
    expectProblem(reply, 401, 'ERR_UNAUTHENTICATED');
    expectMatch(readHeader(reply, 'www-authenticate'), /error="invalid_token"/, 'WWW-Authenticate');
  }),
  check('core.auth.scheme-any-case', '§2.3', 'Authorization: Bearer <token>, the scheme name in any letter case', async (ctx) => {
    const alice = await ctx.user('alice');
    expectStatus(await ctx.call('GET', PATHS.session, { headers: { Authorization: `bEARER ${alice.token}` } }), 200);
  }),
  check('core.auth.no-query-token', '§2.3', 'A token in the query string MUST NOT be accepted', async (ctx) => {
    const alice = await ctx.user('alice');
    for (const name of ['access_token', 'token']) {
      const reply = await ctx.call('GET', `${PATHS.session}?${name}=${alice.token}`);
      expectTrue(reply.status === 400 || reply.status === 401, `?${name}=<token> answered ${reply.status}, not 400 or 401`);
    }
  }),
  check('core.auth.public-routes', '§2.3', 'GET /, GET /health, GET /openapi.json, GET /docs and OPTIONS need no session', async (ctx) => {
    for (const path of [PATHS.index, PATHS.health, PATHS.openApi, PATHS.docs]) expectStatus(await ctx.call('GET', path), 200);
    expectStatus(await ctx.call('OPTIONS', PATHS.chats), 204);
  }),
  check('core.auth.session-401', '§2.3', 'GET /session without a session answers 401 when HTML is not negotiated', async (ctx) => {
    expectProblem(await ctx.call('GET', PATHS.session), 401, 'ERR_UNAUTHENTICATED');
  }),
  check('core.auth.header-wins', '§2.3', 'When both a bearer token and the session cookie are sent the header counts', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const reply = await ctx.call('GET', PATHS.session, { token: bob.token, headers: { Cookie: readCookie(readHeader(alice.login201, 'set-cookie')) } });
    expectStatus(reply, 200);
    expectEqual(reply.json?.userId, bob.id, 'the session answered');
  }),
  check('core.cookies.attributes', '§2.4', 'POST /session sets session=<token>; HttpOnly; SameSite=Strict; Path=/; Max-Age', async (ctx) => {
    const { login201 } = await ctx.user('alice');
    const cookie = (readHeader(login201, 'set-cookie') ?? '').split('\n').find((line) => line.startsWith('session='));
    expectTrue(cookie !== undefined, 'the login answer sets the session cookie');
    expectEqual(cookie.split(';')[0], `session=${login201.json.token}`, 'the cookie value');
    for (const attribute of [/;\s*HttpOnly/i, /;\s*SameSite=Strict/i, /;\s*Path=\//, /;\s*Max-Age=\d+/]) expectMatch(cookie, attribute, 'the session cookie');
  }),
  check('core.cookies.read-with-cookie', '§2.4', 'A client authenticates with the session cookie', async (ctx) => {
    const alice = await ctx.user('alice');
    const reply = await ctx.call('GET', PATHS.session, { headers: { Cookie: readCookie(readHeader(alice.login201, 'set-cookie')) } });
    expectStatus(reply, 200);
    expectEqual(reply.json?.userId, alice.id, 'userId');
  }),
  check('core.cookies.csrf-403', '§2.4', 'A cookie-authenticated POST without an allowed Origin: 403 ERR_CSRF and nothing changes', async (ctx) => {
    const alice = await ctx.user('alice');
    const title = ctx.unique('csrf');
    const cookie = readCookie(readHeader(alice.login201, 'set-cookie'));
    const reply = await ctx.call('POST', PATHS.chats, { json: { data: { title } }, headers: { Cookie: cookie, Origin: 'https://attacker.example' } });
    expectProblem(reply, 403, 'ERR_CSRF');
    const none = await ctx.call('POST', PATHS.chats, { json: { data: { title } }, headers: { Cookie: cookie } });
    expectProblem(none, 403, 'ERR_CSRF');
    const listed = await ctx.call('GET', `${PATHS.chats}?title=${encodeURIComponent(title)}&limit=0`, { token: alice.token });
    expectEqual(listed.json?.meta?.total, 0, 'chats with that title');
  }),
  check('core.session.get', '§2.5', 'GET /session: {userId, expiresAt, createdAt} of the caller\'s session, no token', async (ctx) => {
    const alice = await ctx.user('alice');
    const reply = await ctx.call('GET', PATHS.session, { token: alice.token });
    expectStatus(reply, 200);
    expectEqual(reply.json.userId, alice.id, 'userId');
    expectMatch(reply.json.expiresAt, ISO_MS, 'expiresAt');
    expectEqual(reply.json.token, undefined, 'token');
  }),
  check('core.session.patch-prolongs', '§2.5', 'PATCH /session prolongs it: 200 with expiresAt moved, never back', async (ctx) => {
    const alice = await ctx.user('alice');
    const before = await ctx.call('GET', PATHS.session, { token: alice.token });
    const reply = await ctx.call('PATCH', PATHS.session, { token: alice.token, json: {} });
    expectStatus(reply, 200);
    expectTrue(Date.parse(reply.json.expiresAt) >= Date.parse(before.json.expiresAt), `expiresAt went back from ${before.json.expiresAt} to ${reply.json.expiresAt}`);
  }),
  check('core.session.logout-204', '§2.5', 'DELETE /session logs out: 204; from then on the token MUST answer 401', async (ctx) => {
    const dave = await ctx.user('dave');
    const second = await ctx.call('POST', PATHS.session, { json: { login: dave.login, password: dave.password } });
    expectStatus(second, 201);
    expectTrue(second.json.token !== dave.token, 'a new token at every login (§2.6)');
    expectStatus(await ctx.call('DELETE', PATHS.session, { token: second.json.token }), 204);
    expectProblem(await ctx.call('GET', PATHS.session, { token: second.json.token }), 401, 'ERR_UNAUTHENTICATED');
    expectStatus(await ctx.call('GET', PATHS.session, { token: dave.token }), 200);
  }),
  check('core.session.token-entropy', '§2.6', 'A token carries at least 128 bits (22 or more base64url characters)', async (ctx) => {
    const alice = await ctx.user('alice');
    expectMatch(alice.token, /^[A-Za-z0-9_-]{22,}$/, 'the token');
  }),
];
