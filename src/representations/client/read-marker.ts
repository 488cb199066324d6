// The page script's read marker (docs/protocol.md §10.1, docs/html.md): it moves as the reader reads, only forwards.

/**
 * Messages at least half in view while the page is visible count as read: the newest of them becomes the marker,
 * sent with PUT (data-live-read on the list) at most once a second. A marker moved back (Mark unread from here,
 * here or in another tab: read.updated) holds until the reader scrolls or types again.
 */
export const READ_MARKER = `
  const list = document.querySelector('[data-live]');
  if (!list || !list.dataset.liveRead || !window.IntersectionObserver || !window.fetch) return;
  let seen = list.dataset.lastRead || '';
  let sent = seen;
  let held = false;
  let timer = 0;
  let busy = false;
  const schedule = () => {
    if (held || timer || busy || seen <= sent) return;
    timer = setTimeout(send, 1000);
  };
  const send = async () => {
    timer = 0;
    if (document.visibilityState !== 'visible') return;
    const lastReadId = seen;
    busy = true;
    try {
      const response = await fetch(list.dataset.liveRead, {
        method: 'PUT', credentials: 'same-origin',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ data: { lastReadId } }),
      });
      if (response.ok && lastReadId > sent) sent = lastReadId;
    } catch (error) {
      // The next message read tries again.
    } finally {
      busy = false;
      schedule();
    }
  };
  const visible = new Set();
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting && entry.intersectionRatio >= 0.5) visible.add(entry.target); else visible.delete(entry.target);
    }
    read();
  }, { threshold: [0, 0.5, 1] });
  const read = () => {
    if (document.visibilityState !== 'visible') return;
    for (const element of visible) {
      const id = element.dataset.messageId;
      if (element.isConnected && id > seen) seen = id;
    }
    schedule();
  };
  const watch = (root) => {
    for (const element of root.querySelectorAll('[data-message-id]')) observer.observe(element);
    if (root.matches && root.matches('[data-message-id]')) observer.observe(root);
  };
  watch(list);
  document.addEventListener('chat:updated', (event) => { if (event.detail && list.contains(event.detail)) watch(event.detail); });
  document.addEventListener('visibilitychange', read);
  const resume = () => { if (!held) return; held = false; read(); };
  for (const type of ['wheel', 'touchmove', 'keydown']) document.addEventListener(type, resume, { passive: true });
  // Mark unread from here (a form to the marker's own path): hold at once, before its read.updated comes back.
  document.addEventListener('submit', (event) => {
    const form = event.target;
    const field = form.querySelector('input[name=lastReadId]');
    if (!field || new URL(form.action, location.href).pathname !== new URL(list.dataset.liveRead, location.href).pathname) return;
    if (field.value >= sent) return;
    held = true;
    clearTimeout(timer);
    timer = 0;
  }, true);
  document.addEventListener('chat:event', ({ detail }) => {
    if (detail.type !== 'read.updated' || detail.event.chatId !== list.dataset.liveChat) return;
    const marker = detail.event.data.lastReadId || '';
    if (marker >= sent) { sent = marker; if (marker > seen) seen = marker; return; }
    // Moved back on purpose: hold until the reader moves.
    sent = marker;
    seen = marker;
    held = true;
    clearTimeout(timer);
    timer = 0;
  });
`;
