// docs/protocol.md §4.7 and §13 as far as a client sees them: roles, the audit log, deactivation, moderation by admins.
// The checks that act as an admin need one (--admin-token, or alice as the first account of an empty server).
import { PATHS } from '../../paths.ts';
import { expectEqual, expectHeader, expectMatch, expectProblem, expectStatus, expectTrue } from '../expect.ts';
import type { KitContext } from '../context.ts';
import { check } from './define.ts';

/** An invite made by carol (a member), or the check is skipped where members may not invite. */
async function makeCarolsInvite(ctx: KitContext): Promise<any> {
  const carol = await ctx.user('carol');
  const reply = await ctx.call('POST', PATHS.invites, { token: carol.token, json: { data: { maxUses: 1 } } });
  if (reply.status === 403) ctx.skip('members may not invite on this server (--members-invite off)');
  expectStatus(reply, 201);
  return reply;
}

export const TEAM_CHECKS = [
  check('features.invites.unusable-code-403', '§13.2', 'A code given MUST be usable, in every mode, or the sign-up is refused with 403 naming inviteCode', async (ctx) => {
    await ctx.user('carol');
    const reply = await ctx.call('POST', PATHS.users, { json: { login: ctx.unique('u').slice(0, 32), password: 'a good long password', inviteCode: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } });
    if (ctx.registrationClosed) expectProblem(reply, 403, 'ERR_REGISTRATION_CLOSED');
    else expectProblem(reply, 403, 'ERR_INVITE_INVALID', 'inviteCode');
  }),
  check('features.invites.create', '§13.5', 'POST /invites: 201, Location: /invites/{id}, the invite with its code, shown only in that answer', async (ctx) => {
    const made = await makeCarolsInvite(ctx);
    const invite = made.json.data;
    expectHeader(made, 'location', ctx.prefixed(ctx.at(PATHS.invite, { inviteId: invite.id })));
    expectEqual(Object.keys(invite).sort(), ['code', 'createdAt', 'createdBy', 'expiresAt', 'id', 'maxUses', 'revokedAt', 'role', 'url', 'uses'], 'the keys of the invite');
    expectMatch(invite.code, /^[A-Za-z0-9_-]{22,}$/, 'the code (at least 128 bits)');
    expectEqual([invite.maxUses, invite.uses, invite.role, invite.revokedAt], [1, 0, 'member', null], 'maxUses, uses, role, revokedAt');
    expectTrue(String(invite.url).endsWith(ctx.prefixed(ctx.at(PATHS.join, { code: invite.code }))), `the url ${invite.url} ends with the join path`);
    const again = await ctx.call('GET', ctx.at(PATHS.invite, { inviteId: invite.id }), { token: (await ctx.user('carol')).token });
    expectStatus(again, 200);
    expectEqual([again.json.data.code, again.json.data.url], [null, null], 'code and url after creation');
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.invite, { inviteId: invite.id }), { token: (await ctx.user('carol')).token }), 204);
  }),
  check('features.invites.member-no-admin-role', '§13.5', 'A member invites never with "role": "admin" (403 ERR_FORBIDDEN naming data.role)', async (ctx) => {
    const carol = await ctx.user('carol');
    if (carol.role !== 'member') ctx.skip('carol is not a member on this server');
    expectProblem(await ctx.call('POST', PATHS.invites, { token: carol.token, json: { data: { role: 'admin' } } }), 403, 'ERR_FORBIDDEN', 'data.role');
  }),
  check('features.invites.join-and-revoke', '§13.5', 'GET /join/{code} answers a usable code without a session; DELETE /invites/{id} revokes: 204, and the code stops working at once', async (ctx) => {
    const made = await makeCarolsInvite(ctx);
    const { id, code } = made.json.data;
    const join = await ctx.call('GET', ctx.at(PATHS.join, { code }));
    if (ctx.registrationClosed) expectProblem(join, 403, 'ERR_FORBIDDEN');
    else {
      expectStatus(join, 200);
      expectEqual([join.json.role, join.json.usesLeft], ['member', 1], 'role and usesLeft');
      expectProblem(await ctx.call('GET', ctx.at(PATHS.join, { code: 'BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' })), 404, 'ERR_NOT_FOUND');
    }
    const carol = await ctx.user('carol');
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.invite, { inviteId: id }), { token: carol.token }), 204);
    expectStatus(await ctx.call('DELETE', ctx.at(PATHS.invite, { inviteId: id }), { token: carol.token }), 204);
    const refused = await ctx.call('POST', PATHS.users, { json: { login: ctx.unique('r').slice(0, 32), password: 'a good long password', inviteCode: code } });
    expectProblem(refused, 403, ctx.registrationClosed ? 'ERR_REGISTRATION_CLOSED' : 'ERR_INVITE_REVOKED');
  }),
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
