// The chat screen's actions in place (docs/html.md, "What the script does"): forms post with fetch and links that
// only change the screen's view (reply, edit, cancel) fetch it; the answer's regions are swapped in, nothing reloads.

/**
 * Follows SCREEN_REGIONS in the same scope. A form's answer is the page its 303 names (or the form again with its
 * error, 4xx): a page elsewhere (leaving the chat) is simply visited; the composer is emptied only after it sent.
 */
export const SCREEN_ACTIONS = `
  const say = (form, text) => {
    let line = form.querySelector('[data-form-problem]');
    if (!line) {
      line = document.createElement('p');
      line.className = 'error';
      line.setAttribute('role', 'alert');
      line.dataset.formProblem = '';
      form.prepend(line);
    }
    line.textContent = text;
  };
  // The same form in the answer: same action, same method and the same hidden fields (mark unread has many).
  const twinOf = (form, doc) => {
    const hidden = (one) => [...one.querySelectorAll('input[type=hidden]')].map((input) => input.name + '=' + input.value).join('&');
    const own = hidden(form);
    return [...doc.forms].find((other) => other.getAttribute('action') === form.getAttribute('action') && hidden(other) === own) || null;
  };
  document.addEventListener('submit', async (event) => {
    const form = event.target;
    if (event.defaultPrevented || form.method !== 'post' || !form.closest('main')) return;
    const target = new URL(form.action, location.href);
    if (target.origin !== location.origin) return;
    event.preventDefault();
    const data = new FormData(form, event.submitter);
    const composer = form.contains(document.querySelector('textarea#compose-text'));
    const buttons = [...form.querySelectorAll('button')];
    for (const button of buttons) button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    busy.count += 1;
    try {
      const body = form.enctype === 'multipart/form-data' ? data : new URLSearchParams(data);
      const { response, doc } = await load(target.href, { method: 'POST', body });
      const landed = new URL(response.url);
      if (!doc) return say(form, 'Not done (' + response.status + '): try again.');
      if (response.ok && landed.pathname !== location.pathname) return location.assign(response.url);
      if (response.ok) {
        applyAnswer(doc, { composer, keepText: !composer, follow: composer ? true : undefined });
        if (response.redirected) history.replaceState(null, '', landed.pathname + landed.search);
        if (composer) { const text = document.querySelector('textarea#compose-text'); if (text) text.focus(); }
        document.dispatchEvent(new CustomEvent('chat:sent', { detail: { form, data } }));
        return;
      }
      const twin = twinOf(form, doc);
      if (twin) {
        // The form again with the error beside its field and what was typed (the server's values).
        form.replaceWith(twin);
        announce(twin);
        const invalid = twin.querySelector('[aria-invalid=true]');
        if (invalid) invalid.focus();
      } else {
        const alert = doc.querySelector('main [role=alert]');
        say(form, alert ? alert.textContent : 'Not done (' + response.status + ').');
      }
    } catch (error) {
      say(form, 'Not sent: the server could not be reached. What you typed is still here; try again.');
    } finally {
      for (const button of buttons) button.disabled = false;
      form.removeAttribute('aria-busy');
      settle();
    }
  });
  // Reply, edit and cancel are links to this same page with the screen's own query, ?reply= or ?edit= (they work
  // without scripts too): fetched, and the composer and the messages swapped in.
  document.addEventListener('click', async (event) => {
    const link = event.target.closest ? event.target.closest('main a[href]') : null;
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const url = new URL(link.href);
    if (url.origin !== location.origin || url.pathname !== location.pathname || url.search === location.search) return;
    // Keyset pages (before=, after=) are other pages of the history: those load as pages.
    if (url.searchParams.has('before') || url.searchParams.has('after')) return;
    event.preventDefault();
    busy.count += 1;
    try {
      const { response, doc } = await load(url.pathname + url.search);
      if (!response.ok || !doc) return location.assign(url.href);
      applyAnswer(doc, { composer: true, keepText: true, follow: false });
      history.replaceState(null, '', url.pathname + url.search + url.hash);
      const edited = url.searchParams.get('edit');
      const field = edited ? document.querySelector('[data-message-id="' + CSS.escape(edited) + '"] textarea')
        : document.querySelector('textarea#compose-text');
      if (field) field.focus();
    } catch (error) {
      location.assign(url.href);
    } finally {
      settle();
    }
  });
`;
