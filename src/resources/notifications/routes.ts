// Routes of a member's notification level in a chat (docs/protocol.md §14.3).
import type { Route } from '../context.ts';
import { one } from '../../openapi/route-doc.ts';
import { id, oneOfValues } from '../../openapi/schema.ts';
import { envelopeSchema } from '../service/openapi.ts';
import { getNotificationSetting, NOTIFICATION_LEVELS, putNotificationSetting } from './handlers.ts';
import { PATHS } from '../../paths.ts';

const SETTING_BODY = envelopeSchema({
  chatId: id('Equal to the chat id in the path'),
  level: oneOfValues(NOTIFICATION_LEVELS, 'all: every message of others; mentions: those that mention you; none: nothing'),
}, ['level']);

export const NOTIFICATION_ROUTES: Route[] = [
  {
    method: 'GET', pattern: PATHS.notifications, handler: getNotificationSetting,
    summary: 'Read the caller\'s notification level in a chat (all in direct chats, mentions in groups, until set)', responses: { 200: one('NotificationSetting') },
  },
  {
    method: 'PUT', pattern: PATHS.notifications, handler: putNotificationSetting, summary: 'Set the caller\'s notification level in a chat: all, mentions or none',
    requestBody: { contentTypes: ['application/json'], schema: SETTING_BODY, example: { data: { level: 'all' } } },
    responses: { 200: one('NotificationSetting', 'The level as set') },
  },
];
