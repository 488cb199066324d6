// The whole route table, in order: each resource folder contributes its routes.
import type { Route } from './context.ts';
import { ACTION_ROUTES } from './actions/routes.ts';
import { ATTACHMENT_ROUTES } from './attachments/routes.ts';
import { ADMIN_ROUTES } from './admin/routes.ts';
import { AUDIT_ROUTES } from './audit/routes.ts';
import { AVATAR_ROUTES } from './avatars/routes.ts';
import { CHAT_ROUTES } from './chats/routes.ts';
import { EVENT_ROUTES } from './events/routes.ts';
import { INVITE_ROUTES } from './invites/routes.ts';
import { MEMBER_ROUTES } from './members/routes.ts';
import { MESSAGE_ROUTES } from './messages/routes.ts';
import { REACTION_ROUTES } from './reactions/routes.ts';
import { READ_MARKER_ROUTES } from './read-markers/routes.ts';
import { REVISION_ROUTES } from './revisions/routes.ts';
import { SEARCH_ROUTES } from './search/routes.ts';
import { serviceRoutes } from './service/routes.ts';
import { SESSION_ROUTES } from './session/routes.ts';
import { TYPING_ROUTES } from './typing/routes.ts';
import { USER_ROUTES } from './users/routes.ts';
import { ACCOUNT_ROUTES } from './account/routes.ts';
import { USER_SESSION_ROUTES } from './user-sessions/routes.ts';
import { MENTION_ROUTES } from './mentions/routes.ts';
import { NOTIFICATION_ROUTES } from './notifications/routes.ts';
import { BOT_ROUTES } from './bots/routes.ts';
import { TOKEN_ROUTES } from './tokens/routes.ts';
import { WEBHOOK_ROUTES } from './webhooks/routes.ts';
import { PUSH_ROUTES } from './push/routes.ts';
import { WEB_APP_ROUTES } from './web-app/routes.ts';

export const ALL_ROUTES: readonly Route[] = [
  ...serviceRoutes(() => ALL_ROUTES), ...USER_ROUTES, ...AVATAR_ROUTES, ...SESSION_ROUTES, ...SEARCH_ROUTES, ...CHAT_ROUTES,
  ...MEMBER_ROUTES, ...MESSAGE_ROUTES, ...ACTION_ROUTES, ...READ_MARKER_ROUTES, ...REACTION_ROUTES, ...REVISION_ROUTES,
  ...EVENT_ROUTES,
  ...AUDIT_ROUTES,
  ...ATTACHMENT_ROUTES,
  ...INVITE_ROUTES, ...ADMIN_ROUTES,
  // A user's sessions, export and erasure (docs/protocol.md §3.5-§3.7).
  ...USER_SESSION_ROUTES, ...ACCOUNT_ROUTES,
  ...NOTIFICATION_ROUTES, ...MENTION_ROUTES,
  ...TOKEN_ROUTES, ...BOT_ROUTES, ...WEBHOOK_ROUTES,
  // Web Push and its service worker (docs/protocol.md §17).
  ...PUSH_ROUTES,
  ...TYPING_ROUTES,
  // The app's icons and manifest (docs/html.md, Icon and manifest).
  ...WEB_APP_ROUTES,
];
