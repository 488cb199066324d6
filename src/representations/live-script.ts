// The one script of the HTML pages: the newest page of a chat follows the event stream (CONTRACT §9). Without
// scripts the page works the same, by reload. It builds elements with textContent only: no HTML from data.
import { createHash } from 'node:crypto';

/** Reads everything it needs from the list's data-* attributes, so its text (and hash) never changes. */
export const LIVE_SCRIPT = `(() => {
  const list = document.querySelector('ol[data-live-chat]');
  if (!list || !window.EventSource) return;
  const { liveChat: chat, liveEvents: events, liveMessages: messages, liveUsers: users } = list.dataset;
  const element = (tag, text, attributes = {}) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    return node;
  };
  const time = (iso) => {
    const node = element('time', undefined, { datetime: iso });
    node.append(element('span', iso.slice(0, 10)), ' ', element('span', iso.slice(11, 19) + ' UTC'));
    return node;
  };
  const render = (message) => {
    const item = element('li', undefined, { id: 'message-' + message.id });
    const byline = element('p', undefined, { class: 'byline' });
    const author = element('strong');
    author.append(element('a', message.authorId, { href: users + '/' + encodeURIComponent(message.authorId) }));
    const link = element('a', undefined, { href: messages + '/' + encodeURIComponent(message.id) });
    link.append(time(message.createdAt));
    byline.append(author, ' · ', link);
    if (message.replyTo) {
      byline.append(' · in reply to ', element('a', message.replyTo, { href: messages + '/' + encodeURIComponent(message.replyTo) }));
    }
    if (message.editedAt) {
      const edited = element('a', '(edited ', { rel: 'revisions', href: messages + '/' + encodeURIComponent(message.id) + '/revisions' });
      edited.append(time(message.editedAt), ')');
      byline.append(' · ', edited);
    }
    item.append(byline, element('p', message.text, { class: 'text', dir: 'auto' }));
    if (message.reactions && message.reactions.length > 0) {
      const reactions = element('ul', undefined, { class: 'reactions', 'aria-label': 'Reactions' });
      for (const reaction of message.reactions) reactions.append(element('li', reaction.emoji + ' ' + reaction.count));
      item.append(reactions);
    }
    return item;
  };
  const source = new EventSource(events);
  const on = (type, handle) => source.addEventListener(type, (frame) => {
    const event = JSON.parse(frame.data);
    if (event.chatId === chat) handle(event.data);
  });
  on('message.created', (message) => {
    if (!document.getElementById('message-' + message.id)) list.append(render(message));
  });
  on('message.updated', (message) => document.getElementById('message-' + message.id)?.replaceWith(render(message)));
  on('message.deleted', (message) => document.getElementById('message-' + message.id)?.remove());
  on('messages.cleared', () => list.replaceChildren());
})();`;

export const LIVE_SCRIPT_HASH = createHash('sha256').update(LIVE_SCRIPT, 'utf8').digest('base64');
