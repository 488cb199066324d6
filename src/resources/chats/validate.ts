// Field rules of a chat body (docs/protocol.md §1.7, §4.2): {"data": {"title", "members"?}}, title 1-200 characters.
import { invalidField } from '../../http/http-error.ts';
import { checkString, rejectUnknownFields, requireString, unwrapEnvelope, type Body } from '../../parsers/body-fields.ts';
import { ID_PATTERN, isValidId } from '../../storage/ids.ts';

// docs/protocol.md §1.7: a title holds no control character at all (C0, DEL, C1): nothing to hide text or break a line.
export const CHAT_TITLE_RULE = { min: 1, max: 200, pattern: /^[^\u0000-\u001f\u007f-\u009f]*$/u, patternMessage: 'may not hold control characters' };
export const CHAT_ID_RULE = { min: 1, max: 64, pattern: ID_PATTERN, patternMessage: 'may hold only letters, digits, "_" and "-"' };

const WRITABLE = ['id', 'kind', 'title', 'members'];
// Fields of the representation the server sets: named as read-only rather than unknown.
const READ_ONLY = ['ownerId', 'createdAt', 'updatedAt'];

export interface ChatInput {
  title: string;
  /** Other members; the owner is always one, listed or not. */
  members: string[];
}

export interface ChatChanges {
  title?: string;
  /** null (merge-patch) resets the list to the owner alone. */
  members?: string[] | null;
  /** Hands the chat to this member (docs/protocol.md §4.2). */
  ownerId?: string;
}

/**
 * The fields every chat body shares: the envelope, no unknown or read-only fields, an id equal to the path's.
 * `writable`: read-only fields a PATCH may set after all (ownerId).
 */
function unwrapChat(body: Body, pathId: string | undefined, writable: readonly string[] = []): Body {
  const data = unwrapEnvelope(body);
  rejectUnknownFields(data, [...WRITABLE, ...READ_ONLY], 'data.');
  for (const field of READ_ONLY) {
    if (field in data && !writable.includes(field)) throw invalidField(`data.${field}`, field === 'ownerId' ? 'is changed only by PATCH' : 'is read-only: the server sets it');
  }
  if (data['id'] !== undefined && data['id'] !== pathId) {
    throw invalidField('data.id', pathId === undefined ? 'is chosen by the server; to choose it, use PUT /chats/{id}' : 'must equal the id in the path');
  }
  return data;
}

/** A list of user ids, each once (a repeated id is the same member, not an error). */
function checkMembers(value: unknown): string[] {
  if (!Array.isArray(value)) throw invalidField('data.members', 'must be an array of user ids');
  for (const id of value) {
    if (!isValidId(id)) throw invalidField('data.members', `holds ${JSON.stringify(id)}, which is not a user id`);
  }
  return [...new Set(value as string[])];
}

/** POST /chats (pathId undefined) and PUT /chats/{id}: a whole group chat. */
export function validateChat(body: Body, pathId?: string): ChatInput {
  const data = unwrapChat(body, pathId);
  if (data['kind'] !== undefined && data['kind'] !== 'group') {
    throw invalidField('data.kind', pathId === undefined ? 'must be "group" or "direct"' : 'must be "group": a direct chat is opened with POST /chats');
  }
  const title = requireString(data, 'title', CHAT_TITLE_RULE, 'data.');
  return { title, members: data['members'] === undefined ? [] : checkMembers(data['members']) };
}

/** Whether a POST /chats body asks for a direct chat (docs/protocol.md §14.1). */
export function isDirectChatBody(body: Body): boolean {
  const data = body['data'];
  return typeof data === 'object' && data !== null && !Array.isArray(data) && (data as Record<string, unknown>)['kind'] === 'direct';
}

/** POST /chats {"data": {"kind": "direct", "members": [userId]}}: the other person (the caller's own id: a chat with oneself). */
export function validateDirectChat(body: Body): string {
  const data = unwrapChat(body, undefined);
  if (data['title'] !== undefined && data['title'] !== null) throw invalidField('data.title', 'must be absent or null: a direct chat is named by the other person');
  const members = data['members'] === undefined ? [] : checkMembers(data['members']);
  if (members.length !== 1) throw invalidField('data.members', 'must hold exactly one user id: the other person of a direct chat');
  return members[0]!;
}

/** Whether a PATCH body asks only to hand the chat over (all an admin who is not the owner may do). */
export function isHandOverOnly(body: Body): boolean {
  const data = body['data'];
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  return 'ownerId' in data && Object.keys(data).every((field) => field === 'ownerId' || field === 'id');
}

/** PATCH /chats/{id}, JSON or merge-patch (RFC 7396): absent keeps, null resets, a value replaces. */
export function validateChatChanges(body: Body, pathId: string): ChatChanges {
  const data = unwrapChat(body, pathId, ['ownerId']);
  if ('kind' in data) throw invalidField('data.kind', 'cannot change: a chat stays the kind it was made');
  const changes: ChatChanges = {};
  if ('ownerId' in data) {
    if (!isValidId(data['ownerId'])) throw invalidField('data.ownerId', 'must be the user id of a member of the chat');
    changes.ownerId = data['ownerId'] as string;
  }
  if ('title' in data) {
    // A chat always has a title, so merge-patch's "null removes" cannot apply to it.
    if (data['title'] === null) throw invalidField('data.title', 'cannot be removed: a chat needs a title');
    changes.title = checkString(data['title'], 'data.title', CHAT_TITLE_RULE);
  }
  if ('members' in data) changes.members = data['members'] === null ? null : checkMembers(data['members']);
  return changes;
}
