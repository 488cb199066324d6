// The page script's Web Push part (docs/protocol.md §17, docs/html.md): the service worker, Notify me, the page's
// hidden/visible report, and a notification from the page itself while it is hidden.

/** Reads Web Push's paths from <body>'s data-* attributes (html-page.ts), so its text never changes. */
export const PUSH_PART = `
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
  // Hidden, with notifications allowed and no push subscription here: the page notifies by itself (no push round trip).
  document.addEventListener('chat:event', ({ detail }) => {
    if (detail.type !== 'notification') return;
    if (pushed || document.visibilityState !== 'hidden' || !window.Notification || Notification.permission !== 'granted') return;
    const text = String(detail.event.data.message.text);
    const shown = new Notification(document.title, { body: text.length > 100 ? text.slice(0, 99) + '\\u2026' : text, tag: 'chat-' + detail.event.chatId });
    shown.onclick = () => { window.focus(); shown.close(); };
  });
`;
