// The chat screen's regions (docs/html.md, "What the script does"): fetch a page of this server as HTML and take the
// regions of the screen from it. The server renders every message; the script only moves server markup around.

/**
 * The shared start of the chat screen part (client/chat-screen.ts puts the pieces in one scope). Names it relies on
 * (issue #34): the message list `[data-live]`, each message `[data-message-id]`, the sidebar `[data-live-sidebar]`,
 * the older-messages keyset link `a[rel=prev]`, the composer's `textarea#compose-text`.
 */
export const SCREEN_REGIONS = `
  const list = document.querySelector('[data-live]');
  const sidebar = document.querySelector('[data-live-sidebar]');
  if ((!list && !sidebar) || !window.fetch || !window.DOMParser) return;
  const listSelector = list ? list.localName + [...list.classList].map((name) => '.' + CSS.escape(name)).join('') : '';
  const freshListOf = (doc) => doc.querySelector('[data-live]') || (listSelector ? doc.querySelector(listSelector) : null);
  const idOf = (element) => element.dataset.messageId;
  const messagesIn = (root) => [...root.querySelectorAll('[data-message-id]')];
  // Forms and view links in flight: an event meanwhile waits for their answer (which may change the view, e.g. end an
  // edit), then the page is fetched once more: a page fetched for the old view never lands on the new one.
  const busy = { count: 0, missed: false, idle: () => {} };
  const settle = () => {
    busy.count -= 1;
    if (busy.count === 0 && busy.missed) { busy.missed = false; busy.idle(); }
  };
  const announce = (root) => document.dispatchEvent(new CustomEvent('chat:updated', { detail: root }));
  // The server's markup of each message as it arrived, before times were localised or a menu opened: a message the
  // server renders the same again keeps its element, with what the reader typed or opened in it.
  const known = new WeakMap();
  const remember = (root) => { for (const element of messagesIn(root)) known.set(element, element.outerHTML); };
  if (list) remember(list);
  const load = async (url, init) => {
    const response = await fetch(url, { credentials: 'same-origin', ...init, headers: { accept: 'text/html' } });
    const html = (response.headers.get('content-type') || '').startsWith('text/html');
    return { response, doc: html ? new DOMParser().parseFromString(await response.text(), 'text/html') : null };
  };
  // The element that scrolls the conversation: the nearest scrolling ancestor of the list, else the document.
  const scroller = () => {
    for (let node = list && list.parentElement; node && node !== document.body; node = node.parentElement) {
      const overflow = getComputedStyle(node).overflowY;
      if ((overflow === 'auto' || overflow === 'scroll') && node.scrollHeight > node.clientHeight) return node;
    }
    return document.scrollingElement || document.documentElement;
  };
  // A column-reverse scroller (the chat screen's, which opens at its end without a script) counts from its end:
  // scrollTop 0 is the bottom, negative above it.
  const reversed = (box) => box !== document.scrollingElement && getComputedStyle(box).flexDirection === 'column-reverse';
  const atBottom = (box) => (reversed(box) ? -box.scrollTop : box.scrollHeight - box.scrollTop - box.clientHeight) < 48;
  // Changes the list without moving what the reader looks at (no layout shift): the first message in view stays
  // where it was; a reader at the bottom stays at the bottom.
  const keepPlace = (change, follow) => {
    const box = scroller();
    const bottom = atBottom(box);
    const top = box === document.scrollingElement ? 0 : box.getBoundingClientRect().top;
    const anchor = list ? messagesIn(list).find((element) => element.getBoundingClientRect().bottom > top) : null;
    const before = anchor ? anchor.getBoundingClientRect().top : 0;
    const height = box.scrollHeight;
    change();
    // Only a list that changed moves the scroll: a scroll set for nothing would fight the reader's own.
    if (follow === true || (bottom && follow !== false && box.scrollHeight !== height)) box.scrollTop = reversed(box) ? 0 : box.scrollHeight;
    else if (anchor && anchor.isConnected) {
      const moved = anchor.getBoundingClientRect().top - before;
      if (Math.abs(moved) >= 1) box.scrollTop += moved;
    }
  };
  // The newest page merged in: unchanged messages keep their elements, changed ones are replaced, gone ones leave;
  // messages older than the page (loaded above as the reader scrolled) stay as they are.
  let cutoff = '';
  const mergeList = (fresh) => {
    if (!list || !fresh) return;
    const incoming = messagesIn(fresh);
    if (incoming.length === 0) { list.replaceChildren(...fresh.childNodes); return; }
    cutoff = incoming.map(idOf).reduce((low, id) => (id < low ? id : low));
    const current = new Map(messagesIn(list).map((element) => [idOf(element), element]));
    const served = new Map(incoming.map((element) => [element, element.outerHTML]));
    // Times localised while the page is still apart from the document: nothing moves once it is in.
    announce(fresh);
    for (const element of incoming) {
      const html = served.get(element);
      const old = current.get(idOf(element));
      if (old && known.get(old) === html) element.replaceWith(old); else known.set(element, html);
    }
    for (const element of messagesIn(list)) if (idOf(element) >= cutoff) element.remove();
    // What followed the last older message (day lines, the new-messages line, emptied groups) comes anew.
    const tops = [...list.children];
    let last = tops.length - 1;
    while (last >= 0 && !tops[last].matches('[data-message-id]') && !tops[last].querySelector('[data-message-id]')) last -= 1;
    for (const top of tops.slice(last + 1)) top.remove();
    list.append(...fresh.childNodes);
    dropRepeatedLines();
  };
  // Two pages joined may both open the same day, or both show a new-messages line: of two lines without a message
  // and with the same class and time (or text), the later goes.
  const dropRepeatedLines = () => {
    const seen = new Set();
    for (const top of [...list.children]) {
      if (top.matches('[data-message-id]') || top.querySelector('[data-message-id]')) continue;
      const time = top.querySelector('time[datetime]');
      const key = top.className + ' ' + (time ? time.getAttribute('datetime') : top.textContent);
      if (seen.has(key)) top.remove(); else seen.add(key);
    }
  };
  // Regions other than the list, swapped whole: the sidebar (keeping its own scroll) and the chat's summary line.
  const swapRegions = (doc) => {
    for (const selector of ['[data-live-sidebar]', '.chat-nav']) {
      const into = document.querySelector(selector);
      const from = doc.querySelector(selector);
      if (!into || !from || into.innerHTML === from.innerHTML) continue;
      const scrolled = into.scrollTop;
      into.replaceChildren(...from.childNodes);
      into.scrollTop = scrolled;
      announce(into);
    }
  };
  const composerOf = (root) => {
    const text = root.querySelector('textarea#compose-text');
    return text ? text.closest('section') || text.form : null;
  };
  // The composer from the answer (a reply's quote, or emptied after sending); keepText keeps what is typed.
  const swapComposer = (doc, keepText) => {
    const into = composerOf(document);
    const from = composerOf(doc);
    if (!into || !from) return;
    const typed = into.querySelector('textarea#compose-text').value;
    into.replaceWith(from);
    const text = from.querySelector('textarea#compose-text');
    if (keepText && text.value === '') text.value = typed;
    announce(from);
  };
  // A page answered: the list, the other regions, and the composer when asked for; the reader's place kept.
  const applyAnswer = (doc, options) => {
    if (options.list !== false || options.composer) {
      keepPlace(() => {
        if (options.list !== false) mergeList(freshListOf(doc));
        if (options.composer) swapComposer(doc, options.keepText);
      }, options.follow);
    }
    swapRegions(doc);
    if (list && options.list !== false) announce(list);
  };
`;
