// Every resource by its component name in the OpenAPI document, and how it travels (docs/protocol.md §1.4): the
// table the document, the route docs and the answer checks read. The shapes themselves are in schemas.ts.
import { arrayOf, boolean, describe, id, object, ref, text, timestamp, type Schema } from '../openapi/schema.ts';
import { ACTION, ADMIN_INDEX, ATTACHMENT, AUDIT_ENTRY, AVATAR, CHAT, EVENT, HEALTH, INDEX, INVITE, INVITE_STATUS, MEMBER, MESSAGE, NEW_SESSION, NOTIFICATION_SETTING, REACTION, REACTION_COUNT, READ_MARKER, REVISION, SESSION, USER, USER_SESSION } from './schemas.ts';
import { ACCESS_TOKEN, DELIVERY, WEBHOOK } from './integration-schemas.ts';
import { PUSH_KEY, PUSH_SUBSCRIPTION } from './push-schemas.ts';

/** How a resource travels (docs/protocol.md §1.4): chats, messages, actions and what lives under a chat in {"data"}. */
export interface ResourceKind {
  schema: Schema<unknown>;
  enveloped: boolean;
}

/** One message of an export: as GET answers it, with its earlier texts (docs/protocol.md §3.6). */
const EXPORTED_MESSAGE = object({
  ...MESSAGE['properties'] as Record<string, Schema<unknown>>,
  revisions: describe(arrayOf(ref('Revision', REVISION)), 'Every text it had, the current one last'),
}, { description: 'A message of the user, with its revisions.' });

/** A bot the user owns, as GET /users/{id} answers it (but presence, computed for each answer), with its tokens (docs/protocol.md §3.6). */
const { presence: _presence, ...STORED_USER_FIELDS } = USER['properties'] as Record<string, Schema<unknown>>;
const EXPORTED_BOT = object({
  ...STORED_USER_FIELDS,
  tokens: describe(arrayOf(ref('AccessToken', ACCESS_TOKEN)), 'Its personal access tokens, never the secret'),
}, { description: 'A bot of the user, with its tokens.' });

/** GET /users/{id}/export: everything the server holds about one user, in one document (docs/protocol.md §3.6). */
export const EXPORT = object({
  user: ref('User', USER),
  avatars: arrayOf(ref('Avatar', AVATAR)),
  memberships: arrayOf(object({
    chatId: id(), title: text(), ownerId: id(), owner: boolean('True while the user owns the chat'), addedAt: timestamp(), chat: text(undefined, { description: 'The chat\'s path' }),
  })),
  readMarkers: arrayOf(ref('ReadMarker', READ_MARKER)),
  messages: arrayOf(EXPORTED_MESSAGE),
  reactions: arrayOf(object({ messageId: id(), chatId: id(), emoji: text({ min: 1, max: 32 }), createdAt: timestamp() })),
  sessions: arrayOf(ref('UserSession', USER_SESSION)),
  invites: arrayOf(ref('Invite', INVITE)),
  pushSubscriptions: describe(arrayOf(ref('PushSubscription', PUSH_SUBSCRIPTION)), 'The browsers that get Web Push (docs/protocol.md §17.2), without their keys'),
  accessTokens: describe(arrayOf(ref('AccessToken', ACCESS_TOKEN)), 'The user\'s personal access tokens (docs/protocol.md §16.1), never the secret (token null)'),
  bots: describe(arrayOf(EXPORTED_BOT), 'The bots the user owns, webhooks\' bots included (docs/protocol.md §16.2)'),
  webhooks: describe(arrayOf(ref('Webhook', WEBHOOK)), 'The webhooks of the chats the user owns and those they made (docs/protocol.md §16.3), never a secret'),
}, { description: 'Everything the server holds about one user: a download (Content-Disposition: attachment).' });

/** Every resource by its component name in the OpenAPI document. */
export const RESOURCES = {
  User: { schema: USER, enveloped: false },
  AuditEntry: { schema: AUDIT_ENTRY, enveloped: true },
  Avatar: { schema: AVATAR, enveloped: false },
  Session: { schema: SESSION, enveloped: false },
  NewSession: { schema: NEW_SESSION, enveloped: false },
  UserSession: { schema: USER_SESSION, enveloped: true },
  Export: { schema: EXPORT, enveloped: false },
  Chat: { schema: CHAT, enveloped: true },
  Member: { schema: MEMBER, enveloped: true },
  Message: { schema: MESSAGE, enveloped: true },
  Attachment: { schema: ATTACHMENT, enveloped: true },
  Action: { schema: ACTION, enveloped: true },
  Reaction: { schema: REACTION, enveloped: true },
  ReactionCount: { schema: REACTION_COUNT, enveloped: true },
  Revision: { schema: REVISION, enveloped: true },
  ReadMarker: { schema: READ_MARKER, enveloped: true },
  NotificationSetting: { schema: NOTIFICATION_SETTING, enveloped: true },
  Event: { schema: EVENT, enveloped: false },
  Health: { schema: HEALTH, enveloped: false },
  Index: { schema: INDEX, enveloped: false },
  Invite: { schema: INVITE, enveloped: true },
  InviteStatus: { schema: INVITE_STATUS, enveloped: false },
  AdminIndex: { schema: ADMIN_INDEX, enveloped: false },
  AccessToken: { schema: ACCESS_TOKEN, enveloped: true },
  Webhook: { schema: WEBHOOK, enveloped: true },
  Delivery: { schema: DELIVERY, enveloped: true },
  PushKey: { schema: PUSH_KEY, enveloped: false },
  PushSubscription: { schema: PUSH_SUBSCRIPTION, enveloped: true },
} as const satisfies Record<string, ResourceKind>;

export type ResourceName = keyof typeof RESOURCES;
