// Routes of chats.
import type { Route } from '../../http/context.ts';
import { envelopeSchema } from '../service/openapi.ts';
import { deleteChat, getChat, listChats, PATCH_TYPES, patchChat, postChat, putChat } from './handlers.ts';
import { CHAT_PATH, CHATS_PATH } from './paths.ts';

const JSON_TYPES = ['application/json'] as const;

const CHAT_BODY = envelopeSchema({
  id: { type: 'string' },
  title: { type: 'string', minLength: 1, maxLength: 200 },
  members: { type: 'array', items: { type: 'string' } },
});

export const CHAT_ROUTES: Route[] = [
  { method: 'GET', pattern: CHATS_PATH, handler: listChats, summary: 'List the chats the caller is a member of' },
  { method: 'POST', pattern: CHATS_PATH, handler: postChat, summary: 'Create a chat owned by the caller', requestBody: { contentTypes: JSON_TYPES, schema: CHAT_BODY } },
  { method: 'GET', pattern: CHAT_PATH, handler: getChat, summary: 'Read a chat (members only; 404 for anyone else)' },
  { method: 'PUT', pattern: CHAT_PATH, handler: putChat, summary: 'Create a chat under this id (201), or replace its title and members (owner, 200)', requestBody: { contentTypes: JSON_TYPES, schema: CHAT_BODY } },
  { method: 'PATCH', pattern: CHAT_PATH, handler: patchChat, summary: 'Change a chat\'s title or members (owner only)', requestBody: { contentTypes: PATCH_TYPES, schema: CHAT_BODY }, acceptPatch: PATCH_TYPES },
  { method: 'DELETE', pattern: CHAT_PATH, handler: deleteChat, summary: 'Delete a chat and all its messages (owner only)' },
];
