// The public shape of every resource (docs/protocol.md §1.6, §9.1, §10): the JSON Schemas of the OpenAPI document,
// and, through Infer, the return types of the serializers in public-fields.ts, so the two cannot drift.
import {
  arrayOf, boolean, describe, id, ref, tagged, integer, nullable, number, object, oneOfValues, text, timestamp, type Infer, type Schema,
} from '../openapi/schema.ts';
import { PATHS } from '../paths.ts';
import { buildPath } from '../router/compile-pattern.ts';

const AT = '2026-11-21T09:30:00.000Z';
const USER_ID = '01JDAXW3K8Q7M2C6R9T0V5B4NE';
const CHAT_ID = '01JDAXZ9M4B1F7E2A8D3C6K0PQ';
const MESSAGE_ID = '01JDAY1C7H2J9K4L6M8N0P3QRS';
const AVATAR_ID = '01JDAZ3F6G8H0J2K4M6N8P0R2T';

export const USER = object({
  id: id(),
  login: text(undefined, { description: '3-32 letters, digits, ".", "_" or "-"; unique without regard to case' }),
  avatar: describe(nullable(id()), 'The id of the current avatar, or null'),
  role: oneOfValues(['admin', 'member'], 'An admin runs the server for the team (docs/protocol.md §13)'),
  active: boolean('False once an admin deactivated the account: it cannot sign in'),
  kind: oneOfValues(['user', 'bot'], 'A person, or a bot: no password, no log-in, no HTML pages (docs/protocol.md §16.2)'),
  ownerId: describe(nullable(id()), 'A bot\'s owner, who manages its tokens; null for a person'),
  presence: oneOfValues(['online', 'away', 'offline'], 'Computed when answered (docs/protocol.md §14.6): online (an open stream, or a request in the last 2 minutes), away (2-30 minutes), offline. In every answer about users; never in events, which the log keeps'),
  createdAt: timestamp(),
  updatedAt: timestamp(),
}, {
  description: 'A user. Never carries a password or any hash.',
  optional: ['presence'],
  example: { id: USER_ID, login: 'alice', avatar: null, role: 'admin', active: true, kind: 'user', ownerId: null, presence: 'online', createdAt: AT, updatedAt: AT },
});

export const AUDIT_ENTRY = object({
  id: id(),
  at: timestamp(),
  actorId: describe(nullable(id()), 'Who acted; null for the server itself (chat-server admin) or a user since erased'),
  action: text(undefined, { description: '<noun>.<verb>: user.promote, user.demote, invite.create, message.delete, ...' }),
  targetType: oneOfValues(['user', 'invite', 'chat', 'message', 'member', 'session', 'webhook']),
  targetId: id(),
  detail: nullable(object({}, { open: true, description: 'What else the entry says: a chat id, an author, a role' })),
}, {
  description: 'One entry of the audit log: what an admin did, or a role, invite or account change.',
  example: { id: MESSAGE_ID, at: AT, actorId: USER_ID, action: 'user.promote', targetType: 'user', targetId: USER_ID, detail: { role: 'admin' } },
});

export const AVATAR = object({
  id: id(),
  userId: id(),
  avatar: text(undefined, { description: 'The URL path of the image bytes (no token needed to read them)' }),
  contentType: oneOfValues(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
  imageWidth: integer({ minimum: 1 }),
  imageHeight: integer({ minimum: 1 }),
  x: number({ minimum: 0 }),
  y: number({ minimum: 0 }),
  width: number({ exclusiveMinimum: 0 }),
  height: number({ exclusiveMinimum: 0 }),
  createdAt: timestamp(),
}, {
  description: 'An avatar image and its zone (the part a client shows); the server stores the zone, clients crop.',
  example: {
    id: AVATAR_ID, userId: USER_ID, avatar: buildPath(PATHS.avatarImage, { userId: USER_ID, avatarId: AVATAR_ID }), contentType: 'image/png',
    imageWidth: 256, imageHeight: 192, x: 32, y: 0, width: 192, height: 192, createdAt: AT,
  },
});

export const SESSION = object({
  userId: id(),
  expiresAt: timestamp('When the session ends unless it is used or prolonged'),
  createdAt: timestamp(),
}, { description: 'The caller\'s login session.', example: { userId: USER_ID, expiresAt: '2026-11-22T09:30:00.000Z', createdAt: AT } });

/** One of a user's sessions as they (or an admin) list them: never the token or its hash (docs/protocol.md §3.5). */
export const USER_SESSION = object({
  id: id(),
  createdAt: timestamp(),
  lastUsedAt: timestamp('When a request last used it (written at most once a minute)'),
  expiresAt: timestamp('When the session ends unless it is used or prolonged'),
  userAgent: describe(nullable(text({ min: 0, max: 256 })), 'The User-Agent of the login, cut to 256 characters, or null'),
  address: describe(nullable(text()), 'The client address of the login as the server saw it'),
  current: boolean('True for the session of the request that reads the list'),
}, {
  description: 'One login session of a user.',
  example: { id: USER_ID, createdAt: AT, lastUsedAt: AT, expiresAt: '2026-11-22T09:30:00.000Z', userAgent: 'curl/8.5.0', address: '203.0.113.7', current: true },
});

export const NEW_SESSION = object({
  token: text(undefined, { description: 'The bearer token; shown only in this answer' }),
  userId: id(),
  expiresAt: timestamp(),
  createdAt: timestamp(),
}, {
  description: 'A new session: its token is shown once, here.',
  example: { token: 'kq3V0f9bQm2x7YtR1uJ8cW4nE6sA5dLh', userId: USER_ID, expiresAt: '2026-11-22T09:30:00.000Z', createdAt: AT },
});

export const CHAT = object({
  id: id(),
  kind: oneOfValues(['group', 'direct'], 'A group chat, or a direct chat of two people (one with oneself): docs/protocol.md §14.1'),
  title: describe(nullable(text({ min: 1, max: 200 })), 'null for a direct chat, which is named by the other person'),
  ownerId: id(),
  members: describe(arrayOf(id()), 'The ids of the members, the owner included'),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  lastReadId: describe(nullable(id()), "The caller's read marker: the last message read, or null"),
  unreadCount: describe(integer({ minimum: 0 }), 'Messages after the read marker that others wrote'),
  mentionCount: describe(integer({ minimum: 0 }), 'Of those, the ones that mention the caller (docs/protocol.md §14.2)'),
  // Every answer to a member carries them; a chat inside an event leaves them out (docs/protocol.md §9.1), so optional.
}, {
  optional: ['lastReadId', 'unreadCount', 'mentionCount'],
  description: 'A chat. Its lastReadId, unreadCount and mentionCount are the caller\'s own.',
  example: { id: CHAT_ID, kind: 'group', title: 'Lunch', ownerId: USER_ID, members: [USER_ID], createdAt: AT, updatedAt: AT, lastReadId: null, unreadCount: 0, mentionCount: 0 },
});

export const MEMBER = object({
  id: id("The member's user id (a member is addressed by it)"),
  userId: id(),
  login: text(),
  addedAt: timestamp(),
}, { description: 'One membership of a chat.', example: { id: USER_ID, userId: USER_ID, login: 'alice', addedAt: AT } });

export const REACTION_COUNT = object({
  emoji: text({ min: 1, max: 32 }),
  count: integer({ minimum: 1 }),
  userIds: arrayOf(id()),
}, { description: 'One emoji on a message: how many reacted with it, and who.', example: { emoji: '👍', count: 1, userIds: [USER_ID] } });

const ATTACHMENT_ID = '01JDAY4D8E2F6G0H3J5K7M9N1P';

/** docs/protocol.md §15: one file of a message, as the message and the upload answer show it. */
export const ATTACHMENT = object({
  id: id(),
  name: text({ min: 1, max: 255 }, { description: 'The file name as uploaded, without any path' }),
  contentType: oneOfValues(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/octet-stream'],
    'The type the bytes are served with: an image type only for an image the server validated'),
  size: integer({ minimum: 0, description: 'Bytes' }),
  sha256: text(undefined, { pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the bytes, lower-case hex: also their ETag' }),
  href: text(undefined, { description: 'Where the bytes are (members of the chat only)' }),
  width: integer({ minimum: 1, description: 'Pixels, for an image' }),
  height: integer({ minimum: 1, description: 'Pixels, for an image' }),
}, {
  optional: ['width', 'height'],
  description: 'A file attached to a message, or uploaded to be.',
  example: {
    id: ATTACHMENT_ID, name: 'screenshot.png', contentType: 'image/png', size: 48213,
    sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    href: buildPath(PATHS.attachment, { chatId: CHAT_ID, attachmentId: ATTACHMENT_ID }), width: 1280, height: 720,
  },
});

export const MESSAGE = object({
  id: id(),
  chatId: id(),
  authorId: id(),
  text: text({ min: 0, max: 4000 }, { description: 'At least 1 character, unless the message has attachments' }),
  replyTo: describe(nullable(id()), 'The message this one answers, or null'),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  editedAt: describe(nullable(timestamp()), 'When the text last changed; null until it does'),
  reactions: describe(arrayOf(ref('ReactionCount', REACTION_COUNT)), 'In order of first use; the same for every reader'),
  mentions: describe(arrayOf(id()), 'The members the text mentions (@login, @all), in order of first mention (docs/protocol.md §14.2)'),
  attachments: describe(arrayOf(ref('Attachment', ATTACHMENT)), 'Files, in the order they were given; never changed by an edit'),
}, {
  description: 'A message of a chat.',
  example: { id: MESSAGE_ID, chatId: CHAT_ID, authorId: USER_ID, text: 'Noon?', replyTo: null, createdAt: AT, updatedAt: AT, editedAt: null, reactions: [], mentions: [], attachments: [] },
});

export const ACTION = object({
  id: text(undefined, { description: 'reply, edit, delete, react, ...', examples: ['reply'] }),
  method: oneOfValues(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  href: text(undefined, { description: 'The path to call; for react, {emoji} is left in it as a template' }),
}, {
  description: 'Something the caller may do to a message right now.',
  example: { id: 'edit', method: 'PATCH', href: buildPath(PATHS.message, { chatId: CHAT_ID, messageId: MESSAGE_ID }) },
});

export const REACTION = object({
  emoji: text({ min: 1, max: 32 }),
  userId: id(),
  createdAt: timestamp(),
}, { description: 'One user\'s reaction to a message.', example: { emoji: '👍', userId: USER_ID, createdAt: AT } });

export const REVISION = object({
  id: text(undefined, { pattern: '^[1-9][0-9]*$', description: '1, 2, ...: the last is the current text' }),
  text: text({ min: 1, max: 4000 }),
  createdAt: timestamp(),
}, { description: 'One version of a message\'s text.', example: { id: '1', text: 'Noon?', createdAt: AT } });

export const READ_MARKER = object({
  chatId: id(),
  lastReadId: nullable(id()),
  unreadCount: integer({ minimum: 0 }),
  mentionCount: integer({ minimum: 0 }),
}, { description: 'The caller\'s read marker in a chat.', example: { chatId: CHAT_ID, lastReadId: MESSAGE_ID, unreadCount: 0, mentionCount: 0 } });

/** docs/protocol.md §14.3: what the caller is notified of in one chat. */
export const NOTIFICATION_SETTING = object({
  chatId: id(),
  level: oneOfValues(['all', 'mentions', 'none'], 'all: every message of others; mentions: those that mention the caller; none: nothing'),
}, { description: 'The caller\'s notification level in a chat (all in direct chats, mentions in groups until set).', example: { chatId: CHAT_ID, level: 'mentions' } });

export const EVENT_TYPES = [
  'message.created', 'message.updated', 'message.deleted', 'messages.cleared', 'chat.created', 'chat.updated', 'chat.deleted',
  'member.added', 'member.removed', 'reaction.added', 'reaction.removed', 'read.updated',
  'user.updated', 'session.ended', 'notification', 'webhook.disabled',
] as const;

export const EVENT = object({
  id: text(undefined, { pattern: '^[0-9]+$', description: 'Increases over the whole server; resume after it' }),
  type: oneOfValues(EVENT_TYPES),
  chatId: describe(nullable(id()), 'The chat of the event, or null for an event about no chat (user.updated, session.ended)'),
  createdAt: timestamp(),
  data: object({}, { open: true, description: 'The resource as GET answers it at that moment, or {"id"} for a deletion' }),
}, {
  description: 'A change, as the event stream and long-poll deliver it.',
  example: { id: '42', type: 'message.deleted', chatId: CHAT_ID, createdAt: AT, data: { id: MESSAGE_ID } },
});

/** GET /events with Accept: application/json (long-poll): the events after `after`, and the newest id. */
export const EVENT_BATCH = object({
  data: arrayOf(ref('Event', EVENT)),
  meta: object({ lastEventId: text(undefined, { pattern: '^[0-9]+$', description: 'Resume after this id' }) }),
});

export const PAGE_META = object({
  total: integer({ minimum: 0, description: 'Items matching the query, on every page' }),
  limit: integer({ minimum: 0, description: 'The page size used (a larger one asked for is cut to 100)' }),
  offset: integer({ minimum: 0 }),
}, { example: { total: 42, limit: 20, offset: 20 } });

export const PROBLEM_FIELD = object({ field: text(), message: text() });

export const HEALTH = object({ status: oneOfValues(['ok']) });

/** GET /: a map of the API for a client that knows only the server's address. */
export const INDEX = object({
  name: text(),
  version: text(),
  links: {
    type: 'object',
    additionalProperties: { type: 'string', pattern: '^/' },
    description: 'Each relation to its path: chats, users, session, search, events, openapi, docs, health',
  },
}, { description: 'The index of the API.', example: { name: 'Chat API', version: '0.1.0', links: { chats: PATHS.chats, docs: PATHS.docs } } });

/** GET /search: each result is a message, chat or user with its `type` (docs/protocol.md §5). */
export const SEARCH_RESULT = {
  oneOf: [tagged('message', MESSAGE), tagged('chat', CHAT), tagged('user', USER)],
};

const INVITE_ID = '01JDB0A2C4E6G8J0K2M4P6R8T0';
const INVITE_CODE = 'Qk3v9XbT2mYp7LsW1nHc5dRf8gJa0eUz';

export const INVITE = object({
  id: id(),
  code: describe(nullable(text()), 'The secret code (at least 128 random bits): in the answer to POST /invites only, null in every later answer'),
  url: describe(nullable(text()), 'The join page of the code, <public URL><base path>/join/<code>: like code, only in the answer to POST /invites'),
  maxUses: describe(nullable(integer({ minimum: 1 })), 'How many accounts it may make; null: no limit'),
  uses: describe(integer({ minimum: 0 }), 'How many accounts it made'),
  expiresAt: describe(nullable(timestamp()), 'When it stops working; null: never'),
  role: oneOfValues(['admin', 'member'], 'The role of an account made with it'),
  createdBy: id('The user who made it'),
  createdAt: timestamp(),
  revokedAt: describe(nullable(timestamp()), 'When it was revoked (DELETE); null while it holds'),
}, {
  description: 'An invite: a code that lets people sign up (docs/protocol.md §13.5).',
  example: {
    id: INVITE_ID, code: INVITE_CODE, url: `https://chat.example${buildPath(PATHS.join, { code: INVITE_CODE })}`, maxUses: 1, uses: 0,
    expiresAt: '2026-11-28T09:30:00.000Z', role: 'member', createdBy: USER_ID, createdAt: AT, revokedAt: null,
  },
});

/** GET /join/{code} as JSON: what the holder of a code may learn of it before signing up. */
export const INVITE_STATUS = object({
  role: oneOfValues(['admin', 'member'], 'The role the new account gets'),
  expiresAt: describe(nullable(timestamp()), 'When the code stops working; null: never'),
  usesLeft: describe(nullable(integer({ minimum: 1 })), 'Sign-ups left; null: no limit'),
  signUp: text(undefined, { description: 'Where to sign up: POST this path with login, password and inviteCode' }),
}, { description: 'A usable invite code, as its holder sees it.', example: { role: 'member', expiresAt: '2026-11-28T09:30:00.000Z', usesLeft: 1, signUp: PATHS.users } });

/** GET /admin as JSON or XML: where the administrator's collections are (the page itself is HTML). */
export const ADMIN_INDEX = object({
  users: text(undefined, { pattern: '^/' }),
  invites: text(undefined, { pattern: '^/' }),
  audit: text(undefined, { pattern: '^/' }),
}, { description: 'The administration index.', example: { users: PATHS.users, invites: PATHS.invites, audit: PATHS.audit } });

export type PublicUser = Infer<typeof USER>;
export type PublicAuditEntry = Infer<typeof AUDIT_ENTRY>;
export type PublicAvatar = Infer<typeof AVATAR>;
export type PublicSession = Infer<typeof SESSION>;
export type PublicNewSession = Infer<typeof NEW_SESSION>;
export type PublicUserSession = Infer<typeof USER_SESSION>;
export type PublicChat = Infer<typeof CHAT>;
export type PublicMember = Infer<typeof MEMBER>;
export type PublicMessage = Infer<typeof MESSAGE>;
export type PublicAttachment = Infer<typeof ATTACHMENT>;
export type PublicAction = Infer<typeof ACTION>;
export type PublicInvite = Infer<typeof INVITE>;
export type PublicInviteStatus = Infer<typeof INVITE_STATUS>;
