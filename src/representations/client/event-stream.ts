// The page script's one event stream (docs/protocol.md §9): every other part listens to it through the document.
import { EVENT_TYPES } from '../schemas.ts';

/** Every type the stream may carry: the logged events and the ephemeral ones (§14.5, §14.6). */
const STREAM_TYPES = [...EVENT_TYPES, 'typing', 'presence.changed'];

/**
 * Opens the reader's stream (`data-events` on <body>, signed-in pages only) when the page has something live
 * (`[data-live]`), and hands each event on as `document` CustomEvent 'chat:event' with `detail: { id, type,
 * event }` (`event` the parsed JSON of the frame). The parts that follow it never open a stream of their own.
 */
export const EVENT_STREAM = `
  const url = document.body.dataset.events;
  if (!url || !window.EventSource || !document.querySelector('[data-live]')) return;
  const source = new EventSource(url);
  for (const type of ${JSON.stringify(STREAM_TYPES)}) {
    source.addEventListener(type, (frame) => {
      const detail = { id: frame.lastEventId, type, event: JSON.parse(frame.data) };
      document.dispatchEvent(new CustomEvent('chat:event', { detail }));
    });
  }
`;
