// Access tokens, bots and webhooks as pages (docs/html.md, Integrations): forms to make and revoke them, a new
// token's or webhook's secret shown once, and the list of a webhook's deliveries as the table below.
import { PATHS } from '../paths.ts';
import { compilePattern } from '../router/compile-pattern.ts';
import { escapeHtml } from './escape.ts';
import { renderForm } from './html-forms.ts';
import { anchor, pathOf, renderTime } from './html-parts.ts';
import type { CollectionRepresentation, PageContext, SingleRepresentation } from './representation.ts';

const TOKENS = compilePattern(PATHS.tokens);
const WEBHOOKS = compilePattern(PATHS.webhooks);

/** The path parameter of a list page, from its own address. */
function readPathParam(page: PageContext, pattern: ReturnType<typeof compilePattern>): string | undefined {
  const match = pattern.regex.exec(page.self.slice(page.basePath.length).split('?', 1)[0]!);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

function renderShownOnce(label: string, id: string, value: string): string {
  return '<p role="status">Copy it now: it is shown only on this page, the server keeps no copy of it.</p>\n' +
    `<p class="field"><label for="${id}">${escapeHtml(label)}</label><input id="${id}" type="text" readonly value="${escapeHtml(value)}"></p>\n`;
}

/** GET /users/{id}/tokens: make a token, revoke one; and make a bot (whose tokens its page then makes). */
export function renderTokenList(rep: CollectionRepresentation, page: PageContext): { heading: string; main: string } | undefined {
  const userId = readPathParam(page, TOKENS);
  if (userId === undefined) return undefined;
  const self = pathOf(page, 'tokens', { userId });
  const create = renderForm({
    action: self, method: 'POST', button: 'Create token', id: 'token', back: self,
    fields: [
      { name: 'name', label: 'What it is for', type: 'text', attributes: 'required maxlength="100"' },
      { name: 'scopes', label: 'Scopes: "read" or "read write"', type: 'text', value: 'read write' },
      { name: 'expiresAt', label: 'Expires at, UTC (empty: never)', type: 'datetime-local' },
    ],
  }, page);
  const items = rep.data.map((token) => {
    const tokenId = String(token['id']);
    const used = token['lastUsedAt'] === null ? 'never used' : `last used ${renderTime(page, token['lastUsedAt'])}`;
    const expires = token['expiresAt'] === null ? 'never expires' : `expires ${renderTime(page, token['expiresAt'])}`;
    const revoke = renderForm({
      action: pathOf(page, 'token', { userId, tokenId }), method: 'DELETE', button: 'Revoke', id: `revoke-${tokenId}`, back: self, inline: true,
      buttonAttributes: `aria-label="Revoke the token ${escapeHtml(String(token['name']))}"`,
    }, page);
    return `<li>${escapeHtml(String(token['name']))}: ${escapeHtml((token['scopes'] as string[]).join(' and '))}, ${used}, ${expires}. ${revoke}</li>`;
  });
  const list = items.length === 0 ? '<p class="none">No tokens yet.</p>' : `<ul class="results">${items.join('\n')}</ul>`;
  const bots = page.me?.id === userId ? `<section aria-labelledby="new-bot-heading"><h2 id="new-bot-heading">Make a bot</h2>` +
    '<p>A bot is a user of its own, owned by you, that acts only with the tokens you make for it on its page.</p>' +
    `${renderForm({ action: pathOf(page, 'bots'), method: 'POST', button: 'Create bot', id: 'bot', fields: [{ name: 'login', label: 'Its login', type: 'text', attributes: 'required minlength="3" maxlength="32"' }] }, page)}</section>` : '';
  return {
    heading: 'Access tokens',
    main: `<section aria-labelledby="new-token-heading"><h2 id="new-token-heading">New token</h2>${create}</section>\n${list}\n${bots}`,
  };
}

/** A token; right after POST (a form's answer), with its secret, shown once. */
export function renderTokenPage(rep: SingleRepresentation, page: PageContext): { heading: string; main: string } {
  const token = rep.data;
  const secret = typeof token['token'] === 'string' ? renderShownOnce('Token', 'token-secret', token['token']) : '';
  const back = `<p>${anchor(pathOf(page, 'tokens', { userId: String(token['userId']) }), 'Back to the tokens')}</p>`;
  return { heading: `Token ${String(token['name'])}`, main: `${secret}${back}` };
}

/** GET /chats/{id}/webhooks: make one, delete one, see an outgoing one's deliveries. */
export function renderWebhookList(rep: CollectionRepresentation, page: PageContext): { heading: string; main: string } | undefined {
  const chatId = readPathParam(page, WEBHOOKS);
  if (chatId === undefined) return undefined;
  const self = pathOf(page, 'webhooks', { chatId });
  // One form per direction: an incoming webhook takes no url, events or trigger (a 400 names any it is sent).
  const incoming = renderForm({
    action: self, method: 'POST', button: 'Create incoming webhook', id: 'incoming', back: self,
    fields: [{ name: 'direction', type: 'hidden', value: 'incoming' }, { name: 'name', label: 'Name', type: 'text', attributes: 'required maxlength="100"' }],
  }, page);
  const outgoing = renderForm({
    action: self, method: 'POST', button: 'Create outgoing webhook', id: 'outgoing', back: self,
    fields: [
      { name: 'direction', type: 'hidden', value: 'outgoing' },
      { name: 'name', label: 'Name', type: 'text', attributes: 'required maxlength="100"' },
      { name: 'url', label: 'The https:// URL to deliver to', type: 'text', attributes: 'required maxlength="2000"' },
      { name: 'events', label: 'Event types, separated by spaces', type: 'text', value: 'message.created' },
      { name: 'trigger', label: 'Trigger: "all" or "mentions"', type: 'text', value: 'all' },
    ],
  }, page);
  const create = '<section aria-labelledby="new-incoming-heading"><h2 id="new-incoming-heading">New incoming webhook</h2>'
    + `<p>A secret address that posts what it is sent in this chat.</p>${incoming}</section>\n`
    + '<section aria-labelledby="new-outgoing-heading"><h2 id="new-outgoing-heading">New outgoing webhook</h2>'
    + `<p>Each matching event of this chat, POSTed and signed to your URL.</p>${outgoing}</section>`;
  const items = rep.data.map((hook) => {
    const hookId = String(hook['id']);
    const state = hook['disabledAt'] !== null ? ` <strong>Disabled ${renderTime(page, hook['disabledAt'])}</strong> after 24 h of failing deliveries.` : '';
    const deliveries = hook['direction'] === 'outgoing' ? ` ${anchor(pathOf(page, 'webhookDeliveries', { chatId, hookId }), 'Deliveries')}` : '';
    const remove = renderForm({
      action: pathOf(page, 'webhook', { chatId, hookId }), method: 'DELETE', button: 'Delete', id: `delete-${hookId}`, back: self, inline: true,
      buttonAttributes: `aria-label="Delete the webhook ${escapeHtml(String(hook['name']))}"`,
    }, page);
    const target = hook['direction'] === 'outgoing' ? ` to ${escapeHtml(String(hook['url']))}` : '';
    return `<li>${anchor(pathOf(page, 'webhook', { chatId, hookId }), String(hook['name']))}, ${escapeHtml(String(hook['direction']))}${target}.${state}${deliveries} ${remove}</li>`;
  });
  const list = items.length === 0 ? '<p class="none">No webhooks yet.</p>' : `<ul class="results">${items.join('\n')}</ul>`;
  return { heading: 'Webhooks', main: `${list}\n${create}` };
}

/** A webhook; right after POST, with its secret URL (incoming) or signing secret (outgoing), shown once. */
export function renderWebhookPage(rep: SingleRepresentation, page: PageContext): { heading: string; main: string } {
  const hook = rep.data;
  const incoming = hook['direction'] === 'incoming';
  const secret = incoming && typeof hook['url'] === 'string' ? renderShownOnce('Its secret URL', 'webhook-url', hook['url'])
    : !incoming && typeof hook['secret'] === 'string' ? renderShownOnce('Its signing secret', 'webhook-secret', hook['secret']) : '';
  const disabled = hook['disabledAt'] !== null ? `<p class="error">Disabled ${renderTime(page, hook['disabledAt'])} after 24 h of failing deliveries.</p>` : '';
  const chatId = String(hook['chatId']);
  const deliveries = incoming ? '' : `<p>${anchor(pathOf(page, 'webhookDeliveries', { chatId, hookId: String(hook['id']) }), 'Its deliveries')}</p>`;
  return { heading: `Webhook ${String(hook['name'])}`, main: `${secret}${disabled}${deliveries}<p>${anchor(pathOf(page, 'webhooks', { chatId }), 'The chat\'s webhooks')}</p>` };
}
