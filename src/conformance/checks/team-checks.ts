// docs/protocol.md §4.7 and §13 as far as a client sees them: roles, the audit log, deactivation, moderation by admins.
// The checks that act as an admin need one (--admin-token, or alice as the first account of an empty server).
import { PATHS } from '../../paths.ts';
import { expectEqual, expectProblem, expectStatus, expectTrue } from '../expect.ts';
import { check } from './define.ts';

export const TEAM_CHECKS = [
  check('features.roles.fields', '§13.1', 'Every user has role, "admin" or "member", and active, shown in every representation', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const user = (await ctx.call('GET', ctx.at(PATHS.user, { userId: bob.id }), { token: alice.token })).json;
    expectTrue(user.role === 'admin' || user.role === 'member', `role is ${JSON.stringify(user.role)}`);
    expectEqual(user.active, true, 'active');
  }),
  check('features.roles.filter', '§13.1', 'GET /users filters and sorts by role', async (ctx) => {
    const alice = await ctx.user('alice');
    const reply = await ctx.call('GET', `${PATHS.users}?role=member&sort=-role&limit=100`, { token: alice.token });
    expectStatus(reply, 200);
    expectTrue(reply.json.data.every((user: { role: string }) => user.role === 'member'), 'every user listed is a member');
  }),
  check('features.roles.member-cannot-promote', '§13.1', 'Only an active admin may change a role (403 ERR_FORBIDDEN otherwise, also for a member promoting themself)', async (ctx) => {
    const bob = await ctx.user('bob');
    if (bob.role !== 'member') ctx.skip('bob is not a member on this server');
    expectProblem(await ctx.call('PATCH', ctx.at(PATHS.user, { userId: bob.id }), { token: bob.token, json: { role: 'admin' } }), 403, 'ERR_FORBIDDEN');
    expectEqual((await ctx.call('GET', ctx.at(PATHS.user, { userId: bob.id }), { token: bob.token })).json.role, 'member', 'bob\'s role');
  }),
  check('features.audit.members-403', '§13.3', 'GET /audit (admins only; 403 for anyone else)', async (ctx) => {
    const bob = await ctx.user('bob');
    if (bob.role !== 'member') ctx.skip('bob is not a member on this server');
    expectProblem(await ctx.call('GET', PATHS.audit, { token: bob.token }), 403);
  }),
  check('features.audit.collection', '§13.3', 'GET /audit is a collection of {"id", "at", "actorId", "action", "targetType", "targetId", "detail"}, newest first', async (ctx) => {
    const token = await ctx.adminToken();
    const reply = await ctx.call('GET', `${PATHS.audit}?limit=5`, { token });
    expectStatus(reply, 200);
    for (const entry of reply.json.data) expectEqual(Object.keys(entry).sort(), ['action', 'actorId', 'at', 'detail', 'id', 'targetId', 'targetType'], 'the keys of an entry');
    const times = reply.json.data.map((entry: { at: string }) => entry.at);
    expectEqual(times, [...times].sort().reverse(), 'newest first');
  }),
  check('features.deactivation.member-403', '§13.4', 'PATCH /users/{id} {"active": false}: only an active admin may (403 ERR_FORBIDDEN otherwise)', async (ctx) => {
    const [bob, carol] = [await ctx.user('bob'), await ctx.user('carol')];
    if (bob.role !== 'member') ctx.skip('bob is not a member on this server');
    expectProblem(await ctx.call('PATCH', ctx.at(PATHS.user, { userId: carol.id }), { token: bob.token, json: { active: false } }), 403, 'ERR_FORBIDDEN');
  }),
  check('features.deactivation.by-admin', '§13.4', 'Deactivation ends every session (401); the right password then gets 403 ERR_ACCOUNT_DEACTIVATED, a wrong one the 401 of §2.2', async (ctx) => {
    const token = await ctx.adminToken();
    const gina = await ctx.user('gina');
    const path = ctx.at(PATHS.user, { userId: gina.id });
    expectProblem(await ctx.call('PATCH', path, { token, json: { active: 'no' } }), 400, undefined, 'active');
    const off = await ctx.call('PATCH', path, { token, json: { active: false } });
    expectStatus(off, 200);
    expectEqual(off.json.active, false, 'active');
    expectProblem(await ctx.call('GET', PATHS.session, { token: gina.token }), 401, 'ERR_UNAUTHENTICATED');
    expectProblem(await ctx.call('POST', PATHS.session, { json: { login: gina.login, password: gina.password } }), 403, 'ERR_ACCOUNT_DEACTIVATED');
    expectProblem(await ctx.call('POST', PATHS.session, { json: { login: gina.login, password: 'not her password' } }), 401, 'ERR_BAD_CREDENTIALS');
    expectStatus(await ctx.call('PATCH', path, { token, json: { active: true } }), 200);
  }),
  check('features.moderation.admin-reads-404', '§4.7', 'Reading stays members-only: an admin who is not a member gets the 404 of §4.1; the admin may delete any message by its link', async (ctx) => {
    const token = await ctx.adminToken();
    const [bob, carol] = [await ctx.user('bob'), await ctx.user('carol')];
    const chat = await ctx.chat(bob, [carol]);
    const message = await ctx.post(carol, chat.id, 'reported');
    const admin = (await ctx.call('GET', PATHS.session, { token })).json.userId;
    if (admin === bob.id || admin === carol.id) ctx.skip('the admin is one of the chat\'s members');
    expectProblem(await ctx.call('GET', ctx.at(PATHS.chat, { chatId: chat.id }), { token }), 404);
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.message, { chatId: chat.id, messageId: message.id }), { token }), 204);
    expectStatus(await ctx.call('GET', ctx.at(PATHS.message, { chatId: chat.id, messageId: message.id }), { token: carol.token }), 404);
  }),
];
