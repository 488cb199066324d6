// The page script's live chat (docs/protocol.md §14.5, §14.6): who is typing and who is online. The messages
// themselves follow the stream in the chat screen part (client/chat-screen.ts).

/** Presence dots move with presence.changed; "alice is typing…" follows typing events; typing is told to the server. */
export const LIVE_CHAT = `
  const list = document.querySelector('[data-live]');
  const chat = list ? list.dataset.liveChat : undefined;
  const onEvent = (listener) => document.addEventListener('chat:event', ({ detail }) => listener(detail.type, detail.event));
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
  if (!typing || !list) return;
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
  // Delegated: the composer is swapped in anew after a send or a reply (client/screen-regions.ts).
  let told = 0;
  document.addEventListener('input', ({ target }) => {
    const now = Date.now();
    if (!target.matches('textarea#compose-text') || target.value === '' || now - told < 3000) return;
    told = now;
    fetch(typing.dataset.typing, { method: 'POST', credentials: 'same-origin' }).catch(() => {});
  });
`;
