// An outgoing webhook's deliveries as pages (docs/html.md, Integrations): each delivery's state and a table of its
// attempts (time, status, duration, error), newest delivery first; the fields as the API has them stay below.
import { PATHS } from '../paths.ts';
import { compilePattern } from '../router/compile-pattern.ts';
import { escapeHtml } from './escape.ts';
import { anchor, pathOf, renderTime } from './html-parts.ts';
import type { CollectionRepresentation, PageContext, Resource, SingleRepresentation } from './representation.ts';

const DELIVERIES = compilePattern(PATHS.webhookDeliveries);

const STATES: Record<string, string> = {
  pending: 'pending',
  delivered: 'delivered',
  failed: 'given up after 24 h of failing',
  dropped: 'dropped: its webhook was disabled or deleted first',
};

function renderAttempts(page: PageContext, attempts: readonly Resource[], id: string): string {
  if (attempts.length === 0) return '<p class="none">Not attempted yet.</p>';
  const rows = attempts.map((attempt) => {
    const status = attempt['status'] === null ? 'no reply' : String(attempt['status']);
    const duration = attempt['durationMs'] === null ? '' : `${String(attempt['durationMs'])} ms`;
    const error = attempt['error'] === null ? '' : `<bdi>${escapeHtml(String(attempt['error']))}</bdi>`;
    return `<tr><td>${escapeHtml(String(attempt['attempt']))}</td><td>${renderTime(page, attempt['at'])}</td><td>${escapeHtml(status)}</td><td>${duration}</td><td>${error}</td></tr>`;
  });
  const head = ['Attempt', 'Time', 'Status', 'Duration', 'Error'].map((name) => `<th scope="col">${name}</th>`).join('');
  return `<div class="table"><table><caption id="${id}">Attempts</caption><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`;
}

/** One delivery: its state, its event, when it was queued and when it is tried next, and its attempts. */
function renderDelivery(page: PageContext, delivery: Resource, level: 'h1' | 'h2', href?: string): string {
  const id = String(delivery['id']);
  const state = STATES[String(delivery['state'])] ?? String(delivery['state']);
  const title = href === undefined ? `Delivery ${escapeHtml(id)}` : anchor(href, `Delivery ${id}`);
  const next = delivery['nextAttemptAt'] === null ? '' : `; next attempt ${renderTime(page, delivery['nextAttemptAt'])}`;
  const event = delivery['eventId'] === null ? '' : `Event ${escapeHtml(String(delivery['eventId']))}, `;
  const heading = level === 'h2' ? `<h2 id="delivery-${escapeHtml(id)}">${title}: ${escapeHtml(state)}</h2>` : `<p>State: ${escapeHtml(state)}.</p>`;
  const attempts = renderAttempts(page, (delivery['attemptLog'] as Resource[] | undefined) ?? [], `attempts-${escapeHtml(id)}`);
  const body = `${heading}<p>${event}queued ${renderTime(page, delivery['createdAt'])}${next}.</p>${attempts}`;
  return level === 'h2' ? `<section aria-labelledby="delivery-${escapeHtml(id)}">${body}</section>` : body;
}

/** GET /chats/{id}/webhooks/{hookId}/deliveries. */
export function renderDeliveryList(rep: CollectionRepresentation, page: PageContext): { heading: string; main: string } | undefined {
  const match = DELIVERIES.regex.exec(page.self.slice(page.basePath.length).split('?', 1)[0]!);
  if (!match) return undefined;
  const [chatId, hookId] = [decodeURIComponent(match[1]!), decodeURIComponent(match[2]!)];
  const intro = '<p>Newest first. A failing delivery is tried again for 24 h; each keeps its newest 40 attempts.</p>'
    + `<p>${anchor(pathOf(page, 'webhook', { chatId, hookId }), 'The webhook')}</p>`;
  const items = rep.data.map((delivery) => renderDelivery(page, delivery, 'h2', pathOf(page, 'webhookDelivery', { chatId, hookId, deliveryId: String(delivery['id']) })));
  return { heading: 'Deliveries', main: `${intro}${items.length === 0 ? '<p class="none">No deliveries yet.</p>' : items.join('\n')}` };
}

/** GET …/deliveries/{deliveryId}. */
export function renderDeliveryPage(rep: SingleRepresentation, page: PageContext): { heading: string; main: string } {
  return { heading: `Delivery ${String(rep.data['id'])}`, main: renderDelivery(page, rep.data, 'h1') };
}
