// The one script of the HTML pages, allowed by its hash (CSP): times in the reader's locale, the newest page of a chat
// following the event stream (docs/protocol.md §9.9) with who is typing and who is online (§14.5, §14.6), the avatar
// form's zone filled in, files pasted or dropped on the composer added to its file input (§15), and Web Push's
// Notify me (§17). Every page works the same without it.
import { createHash } from 'node:crypto';

/**
 * Reads what it needs from the page (data-* attributes), so its text (and hash) never changes. Live updates
 * fetch this same page again and take its message list: the server renders every message, escaped, with
 * logins, avatars, replies and reaction buttons, so the script builds no markup from data itself.
 */
export const LIVE_SCRIPT = `(() => {
  const localise = (root) => {
    for (const node of root.querySelectorAll('time[datetime]')) {
      const date = new Date(node.getAttribute('datetime'));
      if (Number.isNaN(date.getTime())) continue;
      node.title = node.getAttribute('datetime');
      node.textContent = date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    }
  };
  localise(document);
  const file = document.querySelector('input[type=file][name=avatar]');
  if (file && window.URL && URL.createObjectURL) {
    file.addEventListener('change', () => {
      const chosen = file.files && file.files[0];
      if (!chosen) return;
      const image = new Image();
      image.onload = () => {
        const side = Math.min(image.naturalWidth, image.naturalHeight);
        const zone = { x: Math.floor((image.naturalWidth - side) / 2), y: Math.floor((image.naturalHeight - side) / 2), width: side, height: side };
        for (const [name, value] of Object.entries(zone)) {
          const input = file.form.elements.namedItem(name);
          if (input && input.value === '') input.value = String(value);
        }
        URL.revokeObjectURL(image.src);
      };
      image.src = URL.createObjectURL(chosen);
    });
  }
  // Web Push (docs/protocol.md §17, docs/html.md): the service worker, Notify me, and the page's hidden/visible report.
  const paths = document.body.dataset;
  const base = paths.base;
  const canPush = base !== undefined && window.fetch && 'serviceWorker' in navigator && window.PushManager && window.Notification;
  let pushed = false;
  const post = (path, body) => fetch(path, { method: 'POST', credentials: 'same-origin', keepalive: true, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const reportVisibility = () => post(paths.pushVisibility, { hidden: document.visibilityState === 'hidden' });
  const watchVisibility = () => {
    if (pushed) return;
    pushed = true;
    document.addEventListener('visibilitychange', reportVisibility);
    reportVisibility();
  };
  if (canPush && Notification.permission === 'granted') {
    navigator.serviceWorker.getRegistration(base + '/').then((registration) => registration && registration.pushManager.getSubscription())
      .then((subscription) => { if (subscription) watchVisibility(); }).catch(() => {});
  }
  const enable = document.querySelector('[data-push-enable]');
  const status = document.querySelector('[data-push-status]');
  const say = (text) => { if (status) status.textContent = text; };
  if (enable && canPush) {
    enable.hidden = false;
    say(Notification.permission === 'granted' ? 'Notifications may be on in this browser: Notify me makes sure.' : 'Notify me asks this browser for permission, then notifies you of mentions and direct messages while no chat of yours is open.');
    enable.addEventListener('click', async () => {
      try {
        // The permission prompt comes only from this click (never on load).
        if (await Notification.requestPermission() !== 'granted') return say('This browser blocks notifications from this site: allow them in its settings.');
        const registration = await navigator.serviceWorker.register(paths.serviceWorker, { scope: base + '/' });
        await navigator.serviceWorker.ready;
        const key = await (await fetch(paths.pushKey, { credentials: 'same-origin' })).json();
        const subscription = await registration.pushManager.getSubscription()
          || await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key.publicKey });
        const saved = await post(paths.pushSubscriptions, subscription.toJSON());
        if (!saved.ok) return say('The server refused the subscription of this browser (' + saved.status + ').');
        watchVisibility();
        say('Notifications are on in this browser.');
      } catch (error) {
        say('Notifications could not be turned on here: ' + (error && error.message ? error.message : error));
      }
    });
  }
  const attach = document.querySelector('input[type=file][name=file]');
  if (attach && window.DataTransfer) {
    const add = (files) => {
      if (!files || files.length === 0) return false;
      const all = new DataTransfer();
      for (const chosen of [...attach.files, ...files]) all.items.add(chosen);
      attach.files = all.files;
      return true;
    };
    attach.form.addEventListener('paste', (event) => { if (add(event.clipboardData && event.clipboardData.files)) event.preventDefault(); });
    attach.form.addEventListener('dragover', (event) => event.preventDefault());
    attach.form.addEventListener('drop', (event) => { if (add(event.dataTransfer && event.dataTransfer.files)) event.preventDefault(); });
  }
  const list = document.querySelector('ol[data-live-chat]');
  if (!list || !window.EventSource || !window.fetch || !window.DOMParser) return;
  const chat = list.dataset.liveChat;
  let pending = false;
  let again = false;
  const refresh = async () => {
    if (pending) { again = true; return; }
    pending = true;
    try {
      const response = await fetch(location.pathname + location.search, { headers: { accept: 'text/html' }, credentials: 'same-origin' });
      if (response.ok) {
        const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
        // The list and the line above it (the unread count): the composer, and what is typed in it, stay.
        for (const selector of ['ol[data-live-chat]', '.chat-nav']) {
          const from = fresh.querySelector(selector);
          const into = document.querySelector(selector);
          if (from && into) {
            into.replaceChildren(...from.childNodes);
            localise(into);
          }
        }
      }
    } finally {
      pending = false;
      if (again) { again = false; refresh(); }
    }
  };
  const source = new EventSource(list.dataset.liveEvents);
  const types = ['message.created', 'message.updated', 'message.deleted', 'messages.cleared', 'reaction.added', 'reaction.removed', 'read.updated'];
  for (const type of types) {
    source.addEventListener(type, (frame) => {
      if (JSON.parse(frame.data).chatId === chat) refresh();
    });
  }
  // Hidden, with notifications allowed and no push subscription here: the page notifies by itself (no push round trip).
  source.addEventListener('notification', (frame) => {
    if (pushed || document.visibilityState !== 'hidden' || !window.Notification || Notification.permission !== 'granted') return;
    const event = JSON.parse(frame.data);
    const text = String(event.data.message.text);
    const shown = new Notification(document.title, { body: text.length > 100 ? text.slice(0, 99) + '…' : text, tag: 'chat-' + event.chatId });
    shown.onclick = () => { window.focus(); shown.close(); };
  });
  source.addEventListener('presence.changed', (frame) => {
    const { userId, presence } = JSON.parse(frame.data).data;
    for (const dot of document.querySelectorAll('[data-presence-of]')) {
      if (dot.dataset.presenceOf !== userId) continue;
      dot.dataset.presence = presence;
      dot.title = presence;
      dot.setAttribute('aria-label', presence);
    }
  });
  const typing = document.querySelector('p[data-typing]');
  if (!typing) return;
  const logins = JSON.parse(typing.dataset.logins || '{}');
  const typists = new Map();
  let timer;
  const show = () => {
    const now = Date.now();
    for (const [id, until] of typists) if (until <= now) typists.delete(id);
    const names = [...typists.keys()].map((id) => logins[id] || 'Someone');
    typing.textContent = names.length === 0 ? '' : names.length === 1 ? names[0] + ' is typing\u2026'
      : names.length === 2 ? names[0] + ' and ' + names[1] + ' are typing\u2026' : 'Several people are typing\u2026';
    clearTimeout(timer);
    if (typists.size > 0) timer = setTimeout(show, Math.min(...typists.values()) - now + 50);
  };
  source.addEventListener('typing', (frame) => {
    const event = JSON.parse(frame.data);
    if (event.chatId !== chat) return;
    // How long it holds, as the server counts it, from now on this clock: the two clocks need not agree.
    typists.set(event.data.userId, Date.now() + Date.parse(event.data.until) - Date.parse(event.createdAt));
    show();
  });
  const text = document.querySelector('textarea#compose-text');
  let told = 0;
  if (text) {
    text.addEventListener('input', () => {
      const now = Date.now();
      if (text.value === '' || now - told < 3000) return;
      told = now;
      fetch(typing.dataset.typing, { method: 'POST', credentials: 'same-origin' }).catch(() => {});
    });
  }
})();`;

export const LIVE_SCRIPT_HASH = createHash('sha256').update(LIVE_SCRIPT, 'utf8').digest('base64');
