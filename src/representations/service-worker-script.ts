// The service worker (GET /sw.js, docs/html.md): shows each pushed notification (docs/protocol.md §17.4) and, on a
// click, focuses a tab already showing the chat or opens it. It reads only the decrypted payload; it fetches nothing.
import { createHash } from 'node:crypto';

export const SERVICE_WORKER_SCRIPT = `'use strict';
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
const sameOrigin = (url) => {
  try { return new URL(url, self.registration.scope).origin === self.location.origin ? new URL(url, self.registration.scope).href : self.registration.scope; }
  catch { return self.registration.scope; }
};
self.addEventListener('push', (event) => {
  let notice = {};
  try { notice = event.data ? event.data.json() : {}; } catch { notice = {}; }
  const title = typeof notice.title === 'string' ? notice.title : 'New message';
  const options = {
    body: typeof notice.text === 'string' ? notice.text : '',
    // A newer notification of the same chat replaces the older one (as the push's Topic does on the way).
    tag: typeof notice.chat === 'string' ? 'chat-' + notice.chat : 'test',
    data: { url: sameOrigin(notice.url) },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});
// A tab showing the chat is focused; else a new one opens. A browser that refuses to open one (no click behind the
// event) has one of this site's tabs go to the chat instead.
const openChat = async (url) => {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const wanted = new URL(url);
  const showing = windows.find((client) => { const at = new URL(client.url); return at.origin === wanted.origin && at.pathname === wanted.pathname; });
  if (showing) return showing.focus().catch(() => showing);
  try {
    return await self.clients.openWindow(url);
  } catch (refused) {
    const controlled = windows.find((client) => client.navigate && new URL(client.url).origin === wanted.origin);
    if (!controlled) throw refused;
    return controlled.navigate(url);
  }
};
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const work = openChat((event.notification.data && event.notification.data.url) || self.registration.scope);
  // A click the browser dispatches may keep the worker alive until the tab is shown.
  try { event.waitUntil(work); } catch { /* an event not from the browser cannot wait */ }
});
`;

export const SERVICE_WORKER_ETAG = `"${createHash('sha256').update(SERVICE_WORKER_SCRIPT).digest('base64url').slice(0, 22)}"`;
