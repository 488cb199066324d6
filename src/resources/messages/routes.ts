// Routes of messages: under their chat, and the top-level address of one message.
import type { Route } from '../../http/context.ts';
import { envelopeSchema } from '../service/openapi.ts';
import { PATCH_TYPES } from '../chats/handlers.ts';
import { MESSAGE_PATH, MESSAGES_PATH, TOP_MESSAGE_PATH } from '../chats/paths.ts';
import { deleteAllMessages, deleteMessage, getMessage, getTopLevelMessage, patchMessage, postMessage, putMessage } from './handlers.ts';
import { listMessages } from './history.ts';

const JSON_TYPES = ['application/json'] as const;

const MESSAGE_BODY = envelopeSchema({
  id: { type: 'string' },
  chatId: { type: 'string' },
  text: { type: 'string', minLength: 1, maxLength: 4000 },
  replyTo: { type: ['string', 'null'] },
});

export const MESSAGE_ROUTES: Route[] = [
  { method: 'GET', pattern: MESSAGES_PATH, handler: listMessages, summary: 'Read a chat\'s messages, oldest first (keyset paging with after/before)' },
  { method: 'POST', pattern: MESSAGES_PATH, handler: postMessage, summary: 'Post a message to a chat (any member)', requestBody: { contentTypes: JSON_TYPES, schema: MESSAGE_BODY } },
  { method: 'DELETE', pattern: MESSAGES_PATH, handler: deleteAllMessages, summary: 'Delete every message of a chat (owner only)' },
  { method: 'GET', pattern: MESSAGE_PATH, handler: getMessage, summary: 'Read a message' },
  { method: 'PUT', pattern: MESSAGE_PATH, handler: putMessage, summary: 'Replace a message\'s text and replyTo (author only)', requestBody: { contentTypes: JSON_TYPES, schema: MESSAGE_BODY } },
  { method: 'PATCH', pattern: MESSAGE_PATH, handler: patchMessage, summary: 'Edit a message (author only)', requestBody: { contentTypes: PATCH_TYPES, schema: MESSAGE_BODY }, acceptPatch: PATCH_TYPES },
  { method: 'DELETE', pattern: MESSAGE_PATH, handler: deleteMessage, summary: 'Delete a message (author or the chat\'s owner)' },
  { method: 'GET', pattern: TOP_MESSAGE_PATH, handler: getTopLevelMessage, summary: 'Read a message by its id alone (members of its chat)' },
];
