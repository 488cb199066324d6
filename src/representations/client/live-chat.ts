// The page script's live chat (docs/protocol.md §9.9, §14.5, §14.6): the newest page of a chat follows the event
// stream, with who is typing and who is online.

/**
 * Live updates fetch this same page again and take its message list: the server renders every message, escaped,
 * with logins, avatars, replies and reaction buttons, so the script builds no markup from data itself.
 */
export const LIVE_CHAT = `
  const list = document.querySelector('ol[data-live-chat]');
  if (!list || !window.fetch || !window.DOMParser) return;
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
            document.dispatchEvent(new CustomEvent('chat:updated', { detail: into }));
          }
        }
      }
    } finally {
      pending = false;
      if (again) { again = false; refresh(); }
    }
  };
  const onEvent = (listener) => document.addEventListener('chat:event', ({ detail }) => listener(detail.type, detail.event));
  const types = ['message.created', 'message.updated', 'message.deleted', 'messages.cleared', 'reaction.added', 'reaction.removed', 'read.updated'];
  onEvent((type, event) => {
    if (types.includes(type) && event.chatId === chat) refresh();
  });
  onEvent((type, event) => {
    if (type !== 'presence.changed') return;
    const { userId, presence } = event.data;
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
    typing.textContent = names.length === 0 ? '' : names.length === 1 ? names[0] + ' is typing\\u2026'
      : names.length === 2 ? names[0] + ' and ' + names[1] + ' are typing\\u2026' : 'Several people are typing\\u2026';
    clearTimeout(timer);
    if (typists.size > 0) timer = setTimeout(show, Math.min(...typists.values()) - now + 50);
  };
  onEvent((type, event) => {
    if (type !== 'typing' || event.chatId !== chat) return;
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
`;
