// Routes of Web Push (docs/protocol.md §17) and of the service worker that shows its notifications (docs/html.md).
import type { Route } from '../context.ts';
import { created, noContent, one, page } from '../../openapi/route-doc.ts';
import { boolean, object, text } from '../../openapi/schema.ts';
import { PATHS } from '../../paths.ts';
import { createPushSubscription, deletePushSubscription, getPushKey, getPushSubscription, listPushSubscriptions, PUSH_SUBSCRIPTION_FIELDS, putVisibility, sendTestPush } from './handlers.ts';
import { getServiceWorker } from './service-worker.ts';

const NEW_SUBSCRIPTION = object({
  endpoint: text({ min: 1, max: 2000 }, { description: 'The push service URL: https:// on a public address (docs/protocol.md §17.2)' }),
  keys: object({
    p256dh: text(undefined, { description: 'The browser\'s P-256 public key, base64url (65 bytes)' }),
    auth: text(undefined, { description: 'The browser\'s auth secret, base64url (16 bytes)' }),
  }),
  expirationTime: { type: ['number', 'null'], description: 'Ignored (browsers send null)' },
}, { optional: ['expirationTime'] });

const VISIBILITY = object({ hidden: boolean('true: the page is hidden, push even while its stream is open; false: visible again') });

export const PUSH_ROUTES: Route[] = [
  {
    method: 'GET', pattern: PATHS.pushKey, handler: getPushKey, auth: 'public', summary: 'The server\'s VAPID public key (applicationServerKey) and whether it sends pushes',
    responses: { 200: one('PushKey') },
  },
  {
    method: 'POST', pattern: PATHS.pushSubscriptions, handler: createPushSubscription, summary: 'Subscribe this session to Web Push with the browser\'s PushSubscription JSON',
    requestBody: { contentTypes: ['application/json'], schema: NEW_SUBSCRIPTION, example: { endpoint: 'https://push.example.net/wpush/v2/gAAAAABnEXAMPLE', keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' } } },
    responses: { 201: created('PushSubscription', 'Subscribed: pushes go to it until the session ends') },
  },
  { method: 'GET', pattern: PATHS.pushSubscriptions, handler: listPushSubscriptions, summary: 'List your own push subscriptions, oldest first', responses: { 200: page('PushSubscription') }, query: { fields: PUSH_SUBSCRIPTION_FIELDS } },
  { method: 'GET', pattern: PATHS.pushSubscription, handler: getPushSubscription, summary: 'Read one of your push subscriptions', responses: { 200: one('PushSubscription') } },
  { method: 'DELETE', pattern: PATHS.pushSubscription, handler: deletePushSubscription, summary: 'Unsubscribe: no push goes to it any more', responses: { 204: noContent('Deleted, with what was queued for it') } },
  {
    method: 'POST', pattern: PATHS.pushVisibility, handler: putVisibility, summary: 'Tell the server this session\'s page is hidden (push even with its stream open) or visible',
    requestBody: { contentTypes: ['application/json'], schema: VISIBILITY, example: { hidden: true } },
    responses: { 204: noContent('Noted for the session\'s subscriptions') },
  },
  {
    method: 'POST', pattern: PATHS.pushTest, handler: sendTestPush, summary: 'Send me a test notification: a push to each of your subscriptions',
    responses: { 204: noContent('Queued') }, problems: [409],
  },
  {
    method: 'GET', pattern: PATHS.serviceWorker, handler: getServiceWorker, auth: 'public', raw: true, summary: 'The service worker that shows pushed notifications (scope /)',
    responses: { 200: { description: 'The script', raw: ['text/javascript'], headers: ['ETag'] } },
  },
];
