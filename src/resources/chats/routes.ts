// Routes of chats.
import type { Route } from '../context.ts';
import { created, noContent, one, page } from '../../openapi/route-doc.ts';
import { arrayOf, id, nullable, oneOfValues, text } from '../../openapi/schema.ts';
import { envelopeSchema } from '../service/openapi.ts';
import { CHAT_FIELDS, deleteChat, getChat, listChats, PATCH_TYPES, patchChat, putChat } from './handlers.ts';
import { postChat } from './direct.ts';
import { CHAT_TITLE_RULE } from './validate.ts';
import { PATHS } from '../../paths.ts';

const JSON_TYPES = ['application/json'] as const;

const CHAT_FIELDS_IN = {
  id: id('Equal to the id in the path, if given'),
  title: text(CHAT_TITLE_RULE),
  members: { ...arrayOf(id()), description: 'User ids to add; the owner is always a member' },
};
const CHAT_BODY = envelopeSchema({ ...CHAT_FIELDS_IN, kind: oneOfValues(['group'], 'PUT makes group chats only') }, ['title']);
// docs/protocol.md §14.1: a group needs its title; a direct chat has none and names the other person in members.
const NEW_CHAT_BODY = envelopeSchema({
  ...CHAT_FIELDS_IN,
  kind: oneOfValues(['group', 'direct'], 'group (the default), or direct: members holds the other person alone, title is absent'),
  title: nullable(text(CHAT_TITLE_RULE)),
});
const CHAT_CHANGES = envelopeSchema({
  ...CHAT_FIELDS_IN, members: { anyOf: [CHAT_FIELDS_IN.members, { type: 'null' }] }, ownerId: id('Hands the chat to this member'),
});
const EXAMPLE = { data: { title: 'Lunch', members: ['01JDAXW3K8Q7M2C6R9T0V5B4NE'] } };

export const CHAT_ROUTES: Route[] = [
  { method: 'GET', pattern: PATHS.chats, handler: listChats, summary: 'List the chats the caller is a member of', responses: { 200: page('Chat') }, query: { fields: CHAT_FIELDS } },
  {
    method: 'POST', pattern: PATHS.chats, handler: postChat, summary: 'Create a chat owned by the caller, or open the direct chat with one person (200 when it exists)',
    requestBody: { contentTypes: JSON_TYPES, schema: NEW_CHAT_BODY, example: EXAMPLE },
    responses: { 200: one('Chat', 'The direct chat of that pair, which existed already'), 201: created('Chat') },
  },
  // The caller's read marker and unread count are in the reply: kept for each caller apart.
  { method: 'GET', pattern: PATHS.chat, handler: getChat, summary: 'Read a chat (members only; 404 for anyone else)', responses: { 200: one('Chat') }, keep: 'per-caller' },
  {
    method: 'PUT', pattern: PATHS.chat, handler: putChat, summary: 'Create a chat under this id (201), or replace its title and members (owner, 200)',
    requestBody: { contentTypes: JSON_TYPES, schema: CHAT_BODY, example: EXAMPLE },
    responses: { 200: one('Chat', 'Replaced'), 201: created('Chat', 'Created under this id') }, problems: [409],
  },
  {
    method: 'PATCH', pattern: PATHS.chat, handler: patchChat, summary: 'Change a chat\'s title or members, or hand it to a member (owner; an admin may hand any chat over)',
    requestBody: { contentTypes: PATCH_TYPES, schema: CHAT_CHANGES, example: { data: { title: 'Lunch at noon' } } }, acceptPatch: PATCH_TYPES,
    // 409: the new ownerId is not a member of the chat, or the chat is a direct one.
    responses: { 200: one('Chat', 'Changed') }, problems: [409],
  },
  { method: 'DELETE', pattern: PATHS.chat, handler: deleteChat, summary: 'Delete a chat and all its messages (owner, or an admin)', responses: { 204: noContent('Deleted, with its messages') } },
];
