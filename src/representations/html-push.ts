// On your own page: notifications on this device (docs/html.md). "Notify me" is a button the page's script shows
// and wires (it asks the browser's permission only when clicked); the test notification is a plain form.
import { renderForm } from './html-forms.ts';
import { pathOf } from './html-parts.ts';
import type { PageContext } from './representation.ts';

export function renderPushSection(page: PageContext, userId: string): string {
  const heading = '<h2 id="push-heading">Notifications on this device</h2>';
  if (page.pushSending !== true) {
    return `<section aria-labelledby="push-heading">${heading}<p class="none">This server sends no notifications (its operator has not set it up).</p></section>`;
  }
  const test = renderForm({ action: pathOf(page, 'pushTest'), method: 'POST', button: 'Send me a test notification', id: 'push-test', back: pathOf(page, 'user', { userId }) }, page);
  return `<section aria-labelledby="push-heading" data-push-section>${heading}`
    + '<p data-push-status>Notifications need this page\'s script and a browser that supports them; without them, your chats show what is new when you open them.</p>'
    + '<p><button type="button" data-push-enable hidden>Notify me</button></p>'
    + `${test}</section>`;
}
