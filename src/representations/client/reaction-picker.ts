// The page script's reaction picker (docs/html.md): recent emoji first, kept in this browser, before the common ones.

/**
 * A react form with a text field `emoji` (any emoji, which works without scripts) gets, when its menu opens, a row
 * of this browser's recent reactions (localStorage, newest first, at most eight): one click reacts with it. Every
 * reaction sent from the page, by any form, becomes the most recent.
 */
export const REACTION_PICKER = `
  const KEY = 'chat:recent-emoji';
  const recent = () => {
    try { const kept = JSON.parse(localStorage.getItem(KEY) || '[]'); return Array.isArray(kept) ? kept.filter((one) => typeof one === 'string').slice(0, 8) : []; }
    catch (error) { return []; }
  };
  const keep = (emoji) => {
    const text = String(emoji || '').trim();
    if (text === '' || text.length > 32) return;
    try { localStorage.setItem(KEY, JSON.stringify([text, ...recent().filter((one) => one !== text)].slice(0, 8))); } catch (error) { /* storage off */ }
  };
  // Which emoji a form sends: its emoji field (or the button pressed), else the last segment of a reaction's path.
  document.addEventListener('submit', (event) => {
    const form = event.target;
    let emoji = new FormData(form, event.submitter).getAll('emoji').find((one) => typeof one === 'string' && one.trim() !== '');
    const method = form.querySelector('input[name=_method]');
    if (!emoji && method && method.value === 'PUT' && /\\/reactions\\/[^/]+$/.test(new URL(form.action).pathname)) {
      emoji = decodeURIComponent(new URL(form.action).pathname.split('/').pop());
    }
    if (emoji) keep(emoji);
  }, true);
  const offer = (form) => {
    const field = form.querySelector('input[name=emoji]:not([type=hidden])');
    if (!field) return;
    const menu = form.closest('details') || form.parentElement;
    for (const old of menu.querySelectorAll('[data-recent-emoji]')) old.remove();
    const chosen = recent();
    if (chosen.length === 0) return;
    const row = document.createElement('p');
    row.dataset.recentEmoji = '';
    row.className = 'recent-emoji';
    row.setAttribute('role', 'group');
    row.setAttribute('aria-label', 'Recent reactions');
    for (const emoji of chosen) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = emoji;
      button.setAttribute('aria-label', 'React with ' + emoji);
      button.addEventListener('click', () => { field.value = emoji; form.requestSubmit(); });
      row.append(button);
    }
    // Before the first form of the menu that reacts to the same message (the common eight): recent ones first.
    const first = [...(form.closest('details') || form.parentElement).querySelectorAll('form')].find((other) => other.action === form.action) || form;
    first.before(row);
  };
  document.addEventListener('toggle', (event) => {
    const menu = event.target;
    if (!menu.open || !menu.querySelectorAll) return;
    for (const field of menu.querySelectorAll('input[name=emoji]:not([type=hidden])')) offer(field.form);
  }, true);
`;
