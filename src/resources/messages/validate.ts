// Field rules of a message body (docs/protocol.md §1.7, §4.4, §15): {"data": {"text", "replyTo"?, "attachments"?}}, text 1-4000 characters.
import { invalidField, type HttpError } from '../../http/http-error.ts';
import { checkString, rejectUnknownFields, requireString, unwrapEnvelope, type Body } from '../../parsers/body-fields.ts';
import { isValidId } from '../../storage/ids.ts';

// docs/protocol.md §1.7: no control characters (C0, DEL, C1) but line feed and tab; a CR, NUL or escape is refused.
export const MESSAGE_TEXT_RULE = {
  min: 1,
  max: 4000,
  pattern: /^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f]*$/u,
  patternMessage: 'may not hold control characters other than line feed and tab',
};

const WRITABLE = ['id', 'chatId', 'text', 'replyTo'];
// Fields of the representation the server sets: named as read-only rather than unknown.
const READ_ONLY = ['authorId', 'createdAt', 'updatedAt', 'mentions'];
// Given when a message is posted, never changed by an edit (docs/protocol.md §15.4).
const ATTACHMENTS = 'attachments';

/** docs/protocol.md §15.2: with files attached, the text may be empty or absent. */
const OPTIONAL_TEXT_RULE = { ...MESSAGE_TEXT_RULE, min: 0 };

export interface MessageInput {
  text: string;
  replyTo: string | null;
}

/** A new message: its text and reply, and the ids of uploads it takes (docs/protocol.md §15.2). */
export interface NewMessageInput extends MessageInput {
  attachments: string[];
}

/**
 * The envelope, no unknown or read-only field, and the ids of the path: `chatId` must be the path's chat,
 * `id` the path's message (absent on POST, where the server picks it).
 */
function unwrapMessage(body: Body, path: { chatId: string; messageId?: string }): Body {
  const data = unwrapEnvelope(body);
  rejectUnknownFields(data, [...WRITABLE, ...READ_ONLY, ATTACHMENTS], 'data.');
  if (path.messageId !== undefined && ATTACHMENTS in data) throw invalidField('data.attachments', 'cannot be changed: a message keeps the files it was posted with');
  for (const field of READ_ONLY) {
    if (field in data) throw invalidField(`data.${field}`, 'is read-only: the server sets it');
  }
  if (data['id'] !== undefined && data['id'] !== path.messageId) {
    throw invalidField('data.id', path.messageId === undefined ? 'is chosen by the server' : 'must equal the id in the path');
  }
  if (data['chatId'] !== undefined && data['chatId'] !== path.chatId) throw invalidField('data.chatId', 'must equal the chat id in the path');
  return data;
}

function checkReplyTo(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (!isValidId(value)) throw invalidField('data.replyTo', 'must be the id of a message of this chat, or null');
  return value;
}

/** PUT: a whole message; an absent replyTo is null (PUT replaces the whole state, RFC 9110 §9.3.4). */
export function validateMessage(body: Body, path: { chatId: string; messageId: string }): MessageInput {
  const data = unwrapMessage(body, path);
  return { text: requireString(data, 'text', MESSAGE_TEXT_RULE, 'data.'), replyTo: checkReplyTo(data['replyTo']) };
}

/**
 * POST: text and replyTo as PUT, and `attachments`, ids of the caller's unused uploads in this chat (at most
 * maxAttachments, with `filesAlongside` files of a multipart body). With at least one file the text may be empty.
 */
export function validateNewMessage(body: Body, chatId: string, filesAlongside: number, maxAttachments: number): NewMessageInput {
  const data = unwrapMessage(body, { chatId });
  const attachments = checkAttachmentIds(data[ATTACHMENTS]);
  const files = attachments.length + filesAlongside;
  if (files > maxAttachments) throw tooManyAttachments(maxAttachments);
  const text = files > 0 && data['text'] === undefined ? '' : requireString(data, 'text', files > 0 ? OPTIONAL_TEXT_RULE : MESSAGE_TEXT_RULE, 'data.');
  return { text, replyTo: checkReplyTo(data['replyTo']), attachments };
}

function checkAttachmentIds(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidField('data.attachments', 'must be an array of attachment ids');
  value.forEach((id, index) => {
    if (!isValidId(id)) throw invalidField(`data.attachments[${index}]`, 'must be an attachment id');
    if (value.indexOf(id) !== index) throw invalidField(`data.attachments[${index}]`, 'is given twice');
  });
  return value as string[];
}

/** docs/protocol.md §15.5: more files than --max-attachments on one message. */
export function tooManyAttachments(maxAttachments: number): HttpError {
  return invalidField('data.attachments', `a message holds at most ${maxAttachments} files (--max-attachments)`, 'ERR_TOO_MANY_ATTACHMENTS');
}

/** PATCH, JSON or merge-patch (RFC 7396): absent keeps; `replyTo: null` removes the reply; `text: null` is a 400. */
export function validateMessageChanges(body: Body, path: { chatId: string; messageId: string }): Partial<MessageInput> {
  const data = unwrapMessage(body, path);
  const changes: Partial<MessageInput> = {};
  if ('text' in data) {
    if (data['text'] === null) throw invalidField('data.text', 'cannot be removed: a message needs text');
    changes.text = checkString(data['text'], 'data.text', MESSAGE_TEXT_RULE);
  }
  if ('replyTo' in data) changes.replyTo = checkReplyTo(data['replyTo']);
  return changes;
}
