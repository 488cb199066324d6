// Field rules of a message body (docs/protocol.md §1.7, §4.4): {"data": {"text", "replyTo"?}}, text 1-4000 characters.
import { invalidField } from '../../http/http-error.ts';
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

export interface MessageInput {
  text: string;
  replyTo: string | null;
}

/**
 * The envelope, no unknown or read-only field, and the ids of the path: `chatId` must be the path's chat,
 * `id` the path's message (absent on POST, where the server picks it).
 */
function unwrapMessage(body: Body, path: { chatId: string; messageId?: string }): Body {
  const data = unwrapEnvelope(body);
  rejectUnknownFields(data, [...WRITABLE, ...READ_ONLY], 'data.');
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

/** POST and PUT: a whole message; an absent replyTo is null (PUT replaces the whole state, RFC 9110 §9.3.4). */
export function validateMessage(body: Body, path: { chatId: string; messageId?: string }): MessageInput {
  const data = unwrapMessage(body, path);
  return { text: requireString(data, 'text', MESSAGE_TEXT_RULE, 'data.'), replyTo: checkReplyTo(data['replyTo']) };
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
