// Routes of messages: under their chat, and the top-level address of one message.
import type { Route } from '../context.ts';
import { created, noContent, one, page } from '../../openapi/route-doc.ts';
import { arrayOf, id, nullable, object, text } from '../../openapi/schema.ts';
import { envelopeSchema } from '../service/openapi.ts';
import { PATCH_TYPES } from '../chats/handlers.ts';
import { deleteAllMessages, deleteMessage, getMessage, getTopLevelMessage, patchMessage, postMessage, putMessage } from './handlers.ts';
import { listMessages, MESSAGE_FIELDS } from './history.ts';
import { MESSAGE_TEXT_RULE } from './validate.ts';
import { PATHS } from '../../paths.ts';

const JSON_TYPES = ['application/json'] as const;

const MESSAGE_FIELDS_IN = {
  id: id('Equal to the id in the path, if given'),
  chatId: id('Equal to the chat id in the path, if given'),
  text: text(MESSAGE_TEXT_RULE),
  replyTo: nullable(id('A message of the same chat this one answers')),
};
const MESSAGE_BODY = envelopeSchema(MESSAGE_FIELDS_IN, ['text']);
// docs/protocol.md §15.2: a new message may name earlier uploads, and then needs no text.
const NEW_MESSAGE_BODY = envelopeSchema({
  ...MESSAGE_FIELDS_IN,
  text: text({ ...MESSAGE_TEXT_RULE, min: 0 }, { description: 'Required, 1-4000 characters, unless the message has attachments' }),
  attachments: arrayOf(id(), { description: 'Ids of the caller\'s unused uploads to this chat (POST /chats/{id}/attachments), at most --max-attachments' }),
});
// The same message with its files in the body: text parts `text` and `replyTo`, and file parts named `file`.
const NEW_MESSAGE_MULTIPART = object({
  text: text({ ...MESSAGE_TEXT_RULE, min: 0 }),
  replyTo: id('A message of the same chat this one answers'),
  file: text(undefined, { contentMediaType: 'application/octet-stream', description: 'A file part (with a filename); up to --max-attachments of them' }),
}, { optional: ['text', 'replyTo', 'file'] });
const MESSAGE_CHANGES = envelopeSchema(MESSAGE_FIELDS_IN);
const EXAMPLE = { data: { text: 'Noon?' } };
const KEYSET = [
  { name: 'after', description: 'The limit messages right after this message id, oldest first (keyset paging)', schema: id() },
  { name: 'before', description: 'The limit messages right before this message id, oldest first (keyset paging)', schema: id() },
];

export const MESSAGE_ROUTES: Route[] = [
  {
    method: 'GET', pattern: PATHS.messages, handler: listMessages, summary: 'Read a chat\'s messages, oldest first (keyset paging with after/before)',
    responses: { 200: page('Message') }, query: { fields: MESSAGE_FIELDS, parameters: KEYSET },
    // A page holds nothing of the caller's own; the handler checks the membership before finding it.
    keep: 'shared',
  },
  {
    method: 'POST', pattern: PATHS.messages, handler: postMessage, summary: 'Post a message to a chat (any member), with files if any',
    requestBody: {
      contentTypes: [...JSON_TYPES, 'multipart/form-data'], schemaByType: { 'application/json': NEW_MESSAGE_BODY, 'multipart/form-data': NEW_MESSAGE_MULTIPART }, example: EXAMPLE,
    },
    responses: { 201: created('Message') },
  },
  { method: 'DELETE', pattern: PATHS.messages, handler: deleteAllMessages, summary: 'Delete every message of a chat (owner only)', responses: { 204: noContent('The chat has no messages') } },
  { method: 'GET', pattern: PATHS.message, handler: getMessage, summary: 'Read a message', responses: { 200: one('Message') } },
  {
    method: 'PUT', pattern: PATHS.message, handler: putMessage, summary: 'Replace a message\'s text and replyTo (author only)',
    requestBody: { contentTypes: JSON_TYPES, schema: MESSAGE_BODY, example: EXAMPLE }, responses: { 200: one('Message', 'Replaced') },
  },
  {
    method: 'PATCH', pattern: PATHS.message, handler: patchMessage, summary: 'Edit a message (author only)',
    requestBody: { contentTypes: PATCH_TYPES, schema: MESSAGE_CHANGES, example: EXAMPLE }, acceptPatch: PATCH_TYPES,
    responses: { 200: one('Message', 'Changed') },
  },
  { method: 'DELETE', pattern: PATHS.message, handler: deleteMessage, summary: 'Delete a message (author, the chat\'s owner, or an admin)', responses: { 204: noContent('Deleted') } },
  { method: 'GET', pattern: PATHS.topMessage, handler: getTopLevelMessage, summary: 'Read a message by its id alone (members of its chat)', responses: { 200: one('Message') } },
];
