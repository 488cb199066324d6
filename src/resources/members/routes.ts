// Routes of a chat's members.
import type { Route } from '../../http/context.ts';
import { MEMBER_PATH, MEMBERS_PATH } from '../chats/paths.ts';
import { deleteMember, getMember, listMembers, putMember } from './handlers.ts';

export const MEMBER_ROUTES: Route[] = [
  { method: 'GET', pattern: MEMBERS_PATH, handler: listMembers, summary: 'List the members of a chat' },
  { method: 'GET', pattern: MEMBER_PATH, handler: getMember, summary: 'Read one membership of a chat' },
  { method: 'PUT', pattern: MEMBER_PATH, handler: putMember, summary: 'Add a user to a chat (owner only; no body needed)' },
  { method: 'DELETE', pattern: MEMBER_PATH, handler: deleteMember, summary: 'Remove a member (owner), or leave the chat (the member themself)' },
];
