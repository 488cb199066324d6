// The chat screen follows the one event stream ('chat:event', client/event-stream.ts) and loads older messages
// above as the reader scrolls up (keyset pages, docs/protocol.md §6.6), without moving what is in view.

/** Follows SCREEN_REGIONS in the same scope: one page fetch at a time; events while it runs ask for one more. */
export const SCREEN_LIVE = `
  const chat = list ? list.dataset.liveChat : undefined;
  let pending = false;
  let again = false;
  // What the next fetch must bring: 0 the sidebar alone (from its own page, data-live-sidebar: lighter than a chat's),
  // 1 this page's regions but the list (a read marker moved: the new-messages line stays put), 2 the list too.
  let wanted = -1;
  const refresh = async (level) => {
    wanted = Math.max(wanted, level);
    if (busy.count > 0) { busy.missed = true; return; }
    if (pending) { again = true; return; }
    pending = true;
    const taking = wanted;
    wanted = -1;
    const view = taking === 0 && sidebar && sidebar.dataset.liveSidebar ? sidebar.dataset.liveSidebar : location.pathname + location.search;
    try {
      const { response, doc } = await load(view);
      // The view changed meanwhile (a reply begun, an edit saved): that page is fetched instead.
      if (taking > 0 && (view !== location.pathname + location.search || busy.count > 0)) { wanted = Math.max(wanted, taking); again = true; }
      else if (response.ok && doc) applyAnswer(doc, { list: taking === 2 });
    } catch (error) {
      // The next event tries again.
    } finally {
      pending = false;
      if (again) { again = false; refresh(-1); }
    }
  };
  // A message above the newest page (loaded by scrolling up) changed: fetch it alone, right after the one before it.
  const refreshOne = async (id) => {
    const old = list.querySelector('[data-message-id="' + CSS.escape(id) + '"]');
    if (!old) return;
    const all = messagesIn(list);
    const at = all.indexOf(old);
    const around = at > 0 ? 'after=' + idOf(all[at - 1]) : 'before=' + idOf(all[at + 1]);
    const { response, doc } = await load(list.dataset.liveMessages + '?' + around + '&limit=1');
    const fresh = response.ok && doc ? freshListOf(doc) : null;
    if (!fresh) return;
    const element = fresh.querySelector('[data-message-id="' + CSS.escape(id) + '"]');
    keepPlace(() => { if (element) { known.set(element, element.outerHTML); old.replaceWith(element); } else old.remove(); }, false);
    if (element) announce(element);
  };
  busy.idle = () => refresh(2);
  const forList = ['message.created', 'message.updated', 'message.deleted', 'messages.cleared', 'reaction.added', 'reaction.removed', 'read.updated'];
  const forSidebar = ['message.created', 'message.deleted', 'messages.cleared', 'read.updated', 'chat.created', 'chat.updated', 'chat.deleted', 'member.added', 'member.removed'];
  document.addEventListener('chat:event', ({ detail }) => {
    const { type, event } = detail;
    const here = chat !== undefined && event.chatId === chat && forList.includes(type);
    if (!here && !(sidebar && forSidebar.includes(type))) return;
    const id = type.startsWith('reaction.') ? event.data.messageId : event.data.id;
    // The reader's own message is in already (its form's answer showed it): only the sidebar may change.
    const shown = here && type === 'message.created' && list.querySelector('[data-message-id="' + CSS.escape(String(id)) + '"]') !== null;
    if (here && type !== 'message.created' && typeof id === 'string' && cutoff !== '' && id < cutoff) refreshOne(id).catch(() => {});
    else if (here && !shown && type !== 'read.updated') refresh(2);
    else refresh(here ? 1 : 0);
  });
  // The stream could not resume (client/event-stream.ts): what the screen shows is read again, the draft kept.
  document.addEventListener('chat:reset', (event) => {
    event.preventDefault();
    refresh(2);
  });
  // Older messages: the keyset link above the list loads its page in place when it comes near the view, or when used.
  const older = list && document.querySelector('main a[rel=prev]');
  if (!older || !window.IntersectionObserver) return;
  let loading = false;
  // The oldest page is in: the link's line stays, saying so (taking it out would move the list by a line).
  const finish = () => {
    older.removeAttribute('href');
    older.removeAttribute('rel');
    older.textContent = 'The start of the chat';
  };
  // An older page goes in only once the reader's scroll is at rest (no scroll event for 150 ms): inserted while a
  // wheel's smooth scroll was still running in the column-reverse box, Chromium moved the messages in view out of it
  // for a frame (layout shifts of 0.36-0.44, in about half the bench runs; bench/RESULTS.md). At the top of what is
  // loaded the scroll stops by itself, so the page comes in a moment after the reader gets there.
  const scrollRest = () => new Promise((resolve) => {
    const box = scroller();
    const target = box === document.scrollingElement ? window : box;
    let timer = 0;
    const done = () => { target.removeEventListener('scroll', moved); resolve(); };
    const moved = () => { clearTimeout(timer); timer = setTimeout(done, 150); };
    target.addEventListener('scroll', moved, { passive: true });
    moved();
  });
  const loadOlder = async () => {
    if (loading || !older.hasAttribute('href')) return;
    loading = true;
    try {
      const { response, doc } = await load(older.href);
      const fresh = response.ok && doc ? freshListOf(doc) : null;
      if (!fresh) return;
      remember(fresh);
      await scrollRest();
      // Times localised before the page goes in, and the link changed in the same step: nothing moves after.
      announce(fresh);
      const next = doc.querySelector('main a[rel=prev]');
      keepPlace(() => {
        list.prepend(...fresh.childNodes);
        dropRepeatedLines();
        if (next) older.href = next.href;
        else finish();
      }, false);
      announce(list);
    } finally {
      loading = false;
    }
    // Still in view (a short page): the observer says so again.
    watcher.unobserve(older);
    if (older.hasAttribute('href')) watcher.observe(older);
  };
  const watcher = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) loadOlder().catch(() => {});
  }, { root: scroller() === document.scrollingElement ? null : scroller(), rootMargin: '600px 0px 0px 0px' });
  watcher.observe(older);
  older.addEventListener('click', (event) => { event.preventDefault(); loadOlder().catch(() => {}); });
`;
