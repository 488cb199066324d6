// Routes of webhooks (docs/protocol.md §16.3 to §16.5).
import type { Route } from '../context.ts';
import { created, noContent, one, page } from '../../openapi/route-doc.ts';
import { arrayOf, describe, object, oneOfValues, text } from '../../openapi/schema.ts';
import { createWebhook, DELIVERY_FIELDS, deleteWebhook, getDelivery, getWebhook, listDeliveries, listWebhooks, WEBHOOK_FIELDS } from './handlers.ts';
import { receiveHook } from './incoming.ts';
import { WEBHOOK_EVENT_TYPES } from './validate.ts';
import { PATHS } from '../../paths.ts';

const NEW_WEBHOOK = object({
  data: object({
    name: text({ min: 1, max: 100 }, { description: 'Also its bot user\'s purpose' }),
    direction: oneOfValues(['incoming', 'outgoing']),
    url: text({ min: 1, max: 2000 }, { description: 'Outgoing: where deliveries go, https:// on a public address (docs/protocol.md §16.6)' }),
    events: describe(arrayOf(oneOfValues(WEBHOOK_EVENT_TYPES)), 'Outgoing: the event types delivered (default ["message.created"])'),
    trigger: oneOfValues(['all', 'mentions'], 'Outgoing: every matching event (default), or only those whose message mentions its bot'),
  }, { optional: ['url', 'events', 'trigger'] }),
});

const HOOK_BODY = object({ text: text({ min: 1, max: 4000 }, { description: 'The message to post' }) });

export const WEBHOOK_ROUTES: Route[] = [
  {
    method: 'POST', pattern: PATHS.webhooks, handler: createWebhook, summary: 'Create a webhook of the chat (its owner or an administrator); its secret is shown only in this answer',
    requestBody: { contentTypes: ['application/json'], schema: NEW_WEBHOOK, example: { data: { name: 'CI', direction: 'outgoing', url: 'https://ci.example/chat', events: ['message.created'], trigger: 'mentions' } } },
    responses: { 201: created('Webhook', 'Created: an incoming webhook with its secret url, an outgoing one with its signing secret, shown only here') }, problems: [403],
  },
  { method: 'GET', pattern: PATHS.webhooks, handler: listWebhooks, summary: 'List the chat\'s webhooks (never their secrets)', responses: { 200: page('Webhook') }, query: { fields: WEBHOOK_FIELDS }, problems: [403] },
  { method: 'GET', pattern: PATHS.webhook, handler: getWebhook, summary: 'Read a webhook (without its secret)', responses: { 200: one('Webhook') }, problems: [403] },
  { method: 'DELETE', pattern: PATHS.webhook, handler: deleteWebhook, summary: 'Delete a webhook: its address stops working, its pending deliveries go', responses: { 204: noContent('Deleted') }, problems: [403] },
  {
    method: 'GET', pattern: PATHS.webhookDeliveries, handler: listDeliveries, summary: 'An outgoing webhook\'s deliveries, newest first: state, attempts, last status, time, duration, error',
    responses: { 200: page('Delivery') }, query: { fields: DELIVERY_FIELDS }, problems: [403],
  },
  { method: 'GET', pattern: PATHS.webhookDelivery, handler: getDelivery, summary: 'Read one delivery of an outgoing webhook', responses: { 200: one('Delivery') }, problems: [403] },
  {
    method: 'POST', pattern: PATHS.hook, handler: receiveHook, auth: 'public', summary: 'Post a message through an incoming webhook\'s secret address: {"text"} or text=',
    requestBody: { contentTypes: ['application/json', 'application/x-www-form-urlencoded'], schema: HOOK_BODY, example: { text: 'Build 42 passed' } },
    responses: { 201: created('Message', 'Posted as the webhook\'s bot') }, problems: [404, 415, 429],
    query: { parameters: [{ name: 'secret', in: 'path', description: 'The secret of the webhook\'s url', schema: { type: 'string' } }] },
  },
];
