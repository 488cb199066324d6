// Every route pattern of the API, defined once: the route table, links and Location headers, the pages, the
// form rules and the OpenAPI document all take them from here. A leaf: it imports nothing, so every layer may.

/** The route patterns, in the router's syntax (`:name` is a parameter; buildPath encodes each value). docs/api.md */
export const PATHS = {
  index: '/',
  health: '/health',
  openApi: '/openapi.json',
  docs: '/docs',
  users: '/users',
  user: '/users/:userId',
  avatars: '/users/:userId/avatar',
  avatar: '/users/:userId/avatar/:avatarId',
  avatarImage: '/users/:userId/avatar/:avatarId/image',
  session: '/session',
  // A user's sessions, their export (docs/protocol.md §3.5, §3.6).
  userSessions: '/users/:userId/sessions',
  userSession: '/users/:userId/sessions/:sessionId',
  userExport: '/users/:userId/export',
  search: '/search',
  // Running the server for a team (docs/protocol.md §13).
  audit: '/audit',
  auditEntry: '/audit/:entryId',
  chats: '/chats',
  chat: '/chats/:chatId',
  members: '/chats/:chatId/members',
  member: '/chats/:chatId/members/:userId',
  read: '/chats/:chatId/read',
  // Files of a chat's messages (docs/protocol.md §15): uploads, and the bytes of each.
  attachments: '/chats/:chatId/attachments',
  attachment: '/chats/:chatId/attachments/:attachmentId',
  // Typing indicators (docs/protocol.md §14.5).
  typing: '/chats/:chatId/typing',
  messages: '/chats/:chatId/messages',
  message: '/chats/:chatId/messages/:messageId',
  messageActions: '/chats/:chatId/messages/:messageId/actions',
  reactions: '/chats/:chatId/messages/:messageId/reactions',
  reaction: '/chats/:chatId/messages/:messageId/reactions/:emoji',
  revisions: '/chats/:chatId/messages/:messageId/revisions',
  revision: '/chats/:chatId/messages/:messageId/revisions/:revisionId',
  // The same message addressed by its id alone, from the top level (docs/api.md, Messages and Reactions).
  topMessage: '/messages/:messageId',
  topMessageActions: '/messages/:messageId/actions',
  topReactions: '/messages/:messageId/reactions',
  topReaction: '/messages/:messageId/reactions/:emoji',
  topRevisions: '/messages/:messageId/revisions',
  topRevision: '/messages/:messageId/revisions/:revisionId',
  // Direct messages, mentions and notification levels (docs/protocol.md §14).
  notifications: '/chats/:chatId/notifications',
  mentions: '/mentions',
  // The event stream and long-poll (docs/events.md).
  events: '/events',
  // Invites, the join page and the admin page (docs/protocol.md §13.5, docs/html.md).
  invites: '/invites',
  invite: '/invites/:inviteId',
  join: '/join/:code',
  admin: '/admin',
  // Bots and integrations (docs/protocol.md §16).
  tokens: '/users/:userId/tokens',
  token: '/users/:userId/tokens/:tokenId',
  bots: '/bots',
  webhooks: '/chats/:chatId/webhooks',
  webhook: '/chats/:chatId/webhooks/:hookId',
  webhookDeliveries: '/chats/:chatId/webhooks/:hookId/deliveries',
  webhookDelivery: '/chats/:chatId/webhooks/:hookId/deliveries/:deliveryId',
  hook: '/hooks/:secret',
  // Web Push (docs/protocol.md §17) and the service worker that shows its notifications (docs/html.md).
  pushKey: '/push/key',
  pushVisibility: '/push/visibility',
  pushTest: '/push/test',
  pushSubscriptions: '/push-subscriptions',
  pushSubscription: '/push-subscriptions/:subscriptionId',
  serviceWorker: '/sw.js',
  // The app's icons and manifest (docs/html.md, Icon and manifest): installable, a favicon on every page.
  favicon: '/favicon.ico',
  iconSvg: '/icon.svg',
  icon192: '/icon-192.png',
  icon512: '/icon-512.png',
  manifest: '/manifest.webmanifest',
} as const;

export type PathName = keyof typeof PATHS;

/** The one path of the metrics port (--metrics-port), which is not the API's route table (docs/operations.md). */
export const METRICS_PATH = '/metrics';
