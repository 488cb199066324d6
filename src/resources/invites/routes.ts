// Routes of invites (docs/protocol.md §13.5).
import type { Route } from '../context.ts';
import { created, noContent, one, page } from '../../openapi/route-doc.ts';
import { describe, integer, nullable, object, oneOfValues, timestamp } from '../../openapi/schema.ts';
import { createInvite, getInvite, INVITE_FIELDS, listInvites, revokeInvite } from './handlers.ts';
import { getJoinPage } from './join-page.ts';
import { MAX_MAX_USES, ROLES } from './validate.ts';
import { PATHS } from '../../paths.ts';

const NEW_INVITE = object({
  data: object({
    maxUses: describe(nullable(integer({ minimum: 1, maximum: MAX_MAX_USES })), 'How many accounts it may make (default 1); null: no limit'),
    expiresAt: describe(nullable(timestamp()), 'When it stops working, in the future (default: in 7 days); null: never'),
    role: oneOfValues(ROLES, 'The role of the accounts it makes (default member); admin only in an administrator\'s invite'),
  }, { optional: ['maxUses', 'expiresAt', 'role'] }),
});

export const INVITE_ROUTES: Route[] = [
  {
    method: 'POST', pattern: PATHS.invites, handler: createInvite, tokens: 'refused', summary: 'Create an invite (its code is shown only in this answer)',
    requestBody: { contentTypes: ['application/json'], schema: NEW_INVITE, example: { data: { maxUses: 1, role: 'member' } } },
    responses: { 201: created('Invite', 'Created: the invite with its code and join URL, shown only here') },
  },
  { method: 'GET', pattern: PATHS.invites, handler: listInvites, tokens: 'refused', summary: 'List invites (an administrator: all; anyone else: their own)', responses: { 200: page('Invite') }, query: { fields: INVITE_FIELDS } },
  { method: 'GET', pattern: PATHS.invite, handler: getInvite, tokens: 'refused', summary: 'Read an invite (without its code)', responses: { 200: one('Invite') } },
  { method: 'DELETE', pattern: PATHS.invite, handler: revokeInvite, tokens: 'refused', summary: 'Revoke an invite (it stays listed with revokedAt)', responses: { 204: noContent('Revoked') } },
  {
    method: 'GET', pattern: PATHS.join, handler: getJoinPage, auth: 'optional', summary: 'The join page of an invite link (HTML: a sign-up form with the code)',
    responses: { 200: one('InviteStatus', 'The code can make an account: what it gives (as HTML: the sign-up form)') }, problems: [403],
    query: { parameters: [{ name: 'code', in: 'path', description: 'The invite code, as the invite\'s url has it', schema: { type: 'string' } }] },
  },
];
