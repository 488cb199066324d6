// Routes of a chat's members.
import type { Route } from '../context.ts';
import { noContent, one, page } from '../../openapi/route-doc.ts';
import { id } from '../../openapi/schema.ts';
import { envelopeSchema } from '../service/openapi.ts';
import { deleteMember, getMember, listMembers, MEMBER_FIELDS, putMember } from './handlers.ts';
import { PATHS } from '../../paths.ts';

export const MEMBER_ROUTES: Route[] = [
  { method: 'GET', pattern: PATHS.members, handler: listMembers, summary: 'List the members of a chat', responses: { 200: page('Member') }, query: { fields: MEMBER_FIELDS } },
  { method: 'GET', pattern: PATHS.member, handler: getMember, summary: 'Read one membership of a chat', responses: { 200: one('Member') } },
  {
    method: 'PUT', pattern: PATHS.member, handler: putMember, summary: 'Add a user to a chat (owner only; no body needed)',
    requestBody: { contentTypes: ['application/json'], schema: envelopeSchema({ userId: id('Equal to the user id in the path') }), required: false },
    // 409: a direct chat keeps its two members (docs/protocol.md §14.1).
    responses: { 204: noContent('The user is a member (adding one again changes nothing)') }, problems: [409],
  },
  {
    method: 'DELETE', pattern: PATHS.member, handler: deleteMember, summary: 'Remove a member (owner, or an admin), or leave the chat (the member themself)',
    responses: { 204: noContent('Removed') }, problems: [409],
  },
];
