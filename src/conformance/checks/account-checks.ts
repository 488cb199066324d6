// docs/protocol.md §3.5 to §3.7 as a client sees them: a user's sessions, the export of their data, the erasure of an account.
import { PATHS } from '../../paths.ts';
import { expectEqual, expectHeader, expectProblem, expectStatus, expectTrue, ISO_MS } from '../expect.ts';
import type { KitContext, KitUser } from '../context.ts';
import { check } from './define.ts';

const SESSION_KEYS = ['address', 'createdAt', 'current', 'expiresAt', 'id', 'lastUsedAt', 'userAgent'];

/** A second session of `user`, by logging in again; ended when the run ends. */
async function logInAgain(ctx: KitContext, user: KitUser): Promise<string> {
  const reply = await ctx.call('POST', PATHS.session, { json: { login: user.login, password: user.password }, headers: { 'User-Agent': 'conformance-kit second session' } });
  expectStatus(reply, 201);
  ctx.keepSession(reply.json.token);
  return reply.json.token;
}

export const ACCOUNT_CHECKS = [
  check('features.sessions.list', '§3.5', 'GET /users/{id}/sessions: {"id", "createdAt", "lastUsedAt", "expiresAt", "userAgent", "address", "current"}, oldest first; a session MUST NOT show its token', async (ctx) => {
    const dave = await ctx.user('dave');
    const second = await logInAgain(ctx, dave);
    const reply = await ctx.call('GET', ctx.at(PATHS.userSessions, { userId: dave.id }), { token: second });
    expectStatus(reply, 200);
    const sessions = reply.json.data;
    expectTrue(Array.isArray(sessions) && sessions.length >= 2, `at least two sessions, got ${JSON.stringify(sessions)}`);
    for (const session of sessions) expectEqual(Object.keys(session).sort(), SESSION_KEYS, 'the keys of a session');
    expectEqual(sessions.filter((session: { current: boolean }) => session.current).length, 1, 'sessions marked current');
    expectEqual(sessions.at(-1).userAgent, 'conformance-kit second session', 'the newest session\'s userAgent');
    expectTrue(sessions.at(-1).current === true && ISO_MS.test(sessions.at(-1).expiresAt), 'the newest is current and expires');
    const times = sessions.map((session: { createdAt: string }) => session.createdAt);
    expectEqual(times, [...times].sort(), 'oldest first');
    for (const token of [dave.token, second]) expectTrue(!reply.text.includes(token), 'the answer holds no token');
  }),
  check('features.sessions.others-403', '§3.5', 'Anyone but the user themself or an active admin gets 403 ERR_FORBIDDEN; an unknown user 404', async (ctx) => {
    const [bob, carol] = [await ctx.user('bob'), await ctx.user('carol')];
    if (bob.role !== 'member') ctx.skip('bob is not a member on this server');
    expectProblem(await ctx.call('GET', ctx.at(PATHS.userSessions, { userId: carol.id }), { token: bob.token }), 403, 'ERR_FORBIDDEN');
    expectProblem(await ctx.call('GET', ctx.at(PATHS.userSessions, { userId: ctx.unique('nobody') }), { token: bob.token }), 404);
  }),
  check('features.sessions.end-one', '§3.5', 'DELETE /users/{id}/sessions/{sessionId} ends that session, 204: its token answers 401 from then on; another user\'s session is 404', async (ctx) => {
    const dave = await ctx.user('dave');
    const second = await logInAgain(ctx, dave);
    const listed = (await ctx.call('GET', ctx.at(PATHS.userSessions, { userId: dave.id }), { token: second })).json.data;
    const current = listed.find((session: { current: boolean }) => session.current);
    expectStatus(await ctx.call('GET', ctx.at(PATHS.userSession, { userId: dave.id, sessionId: current.id }), { token: dave.token }), 200);
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.userSession, { userId: dave.id, sessionId: current.id }), { token: dave.token }), 204);
    expectProblem(await ctx.call('GET', PATHS.session, { token: second }), 401, 'ERR_UNAUTHENTICATED');
    expectStatus(await ctx.call('GET', PATHS.session, { token: dave.token }), 200);
    expectProblem(await ctx.call('GET', ctx.at(PATHS.userSession, { userId: dave.id, sessionId: current.id }), { token: dave.token }), 404);
  }),
  check('features.sessions.end-others', '§3.5', 'DELETE /users/{id}/sessions ends every session of the user except the one the request came with, 204', async (ctx) => {
    const ivan = await ctx.user('ivan');
    const second = await logInAgain(ctx, ivan);
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.userSessions, { userId: ivan.id }), { token: second }), 204);
    expectProblem(await ctx.call('GET', PATHS.session, { token: ivan.token }), 401, 'ERR_UNAUTHENTICATED');
    const left = await ctx.call('GET', ctx.at(PATHS.userSessions, { userId: ivan.id }), { token: second });
    expectEqual(left.json.data.map((session: { current: boolean }) => session.current), [true], 'the sessions left');
  }),
  check('features.export.document', '§3.6', 'GET /users/{id}/export: one document; JSON carries Content-Disposition: attachment; filename="<login>-export.json" and Cache-Control: no-store; never a token', async (ctx) => {
    const erin = await ctx.user('erin');
    const chat = await ctx.chat(erin);
    await ctx.post(erin, chat.id, 'exported');
    const reply = await ctx.call('GET', ctx.at(PATHS.userExport, { userId: erin.id }), { token: erin.token, headers: { Accept: 'application/json' } });
    expectStatus(reply, 200);
    expectHeader(reply, 'content-disposition', `attachment; filename="${erin.login}-export.json"`);
    expectHeader(reply, 'cache-control', 'no-store');
    expectEqual(Object.keys(reply.json).sort(), [
      'accessTokens', 'avatars', 'bots', 'invites', 'memberships', 'messages', 'pushSubscriptions', 'reactions', 'readMarkers', 'sessions', 'user', 'webhooks',
    ], 'the keys of the export');
    expectTrue(['accessTokens', 'bots', 'webhooks'].every((key) => Array.isArray(reply.json[key])), 'accessTokens, bots and webhooks are lists');
    expectEqual([reply.json.user.id, reply.json.messages.map((message: { text: string }) => message.text)], [erin.id, ['exported']], 'the user and their messages');
    expectTrue(reply.json.memberships.some((membership: { chatId: string }) => membership.chatId === chat.id), 'the chat is among the memberships');
    expectTrue(!reply.text.includes(erin.token) && !reply.text.includes(erin.password), 'the export holds no token or password');
    const bob = await ctx.user('bob');
    if (bob.role === 'member') expectProblem(await ctx.call('GET', ctx.at(PATHS.userExport, { userId: erin.id }), { token: bob.token }), 403, 'ERR_FORBIDDEN');
  }),
  check('features.erasure.password', '§3.7', 'The user themself MUST send their password: without it 400 naming password, a wrong one 403 ERR_WRONG_PASSWORD; nothing changes then', async (ctx) => {
    const erin = await ctx.user('erin');
    const path = ctx.at(PATHS.user, { userId: erin.id });
    expectProblem(await ctx.call('DELETE', path, { token: erin.token }), 400, undefined, 'password');
    expectProblem(await ctx.call('DELETE', path, { token: erin.token, json: { password: 'not the password' } }), 403, 'ERR_WRONG_PASSWORD', 'password');
    expectStatus(await ctx.call('GET', path, { token: erin.token }), 200);
  }),
  check('features.erasure.erases', '§3.7', 'DELETE /users/{id} erases an account, 204: its tokens answer 401, GET /users/{id} answers 404, the login is free at once', async (ctx) => {
    const hana = await ctx.user('hana');
    const bob = await ctx.user('bob');
    const path = ctx.at(PATHS.user, { userId: hana.id });
    expectStatus(await ctx.call('DELETE', path, { token: hana.token, json: { password: hana.password } }), 204);
    expectProblem(await ctx.call('GET', PATHS.session, { token: hana.token }), 401, 'ERR_UNAUTHENTICATED');
    expectProblem(await ctx.call('GET', path, { token: bob.token }), 404);
    const again = await ctx.signUp({ login: hana.login, password: hana.password });
    expectStatus(again, 201);
    expectTrue(again.json.id !== hana.id, 'the new account has a new id');
  }),
];
