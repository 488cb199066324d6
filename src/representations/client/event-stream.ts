// The page script's one event stream (docs/protocol.md §9), shared by every tab of the browser: every other part
// listens to it through the document.
import { EVENT_TYPES } from '../schemas.ts';

/** Every type the stream may carry: the logged events and the ephemeral ones (§14.5, §14.6). */
const STREAM_TYPES = [...EVENT_TYPES, 'typing', 'presence.changed'];

/**
 * Hands each event of the reader's stream (`data-events` and `data-reader` on <body>: signed-in pages only) on as
 * `document` CustomEvent 'chat:event' with `detail: { id, type, event }` (`event` the parsed JSON of the frame). The
 * parts that follow it never open a stream of their own.
 *
 * One stream per browser (docs/html.md#one-stream-for-all-tabs): the tabs of one reader elect a leader with the Web
 * Lock `chat-events:<reader>`; the leader holds the EventSource and passes every event on through the
 * BroadcastChannel of the same name. Each tab remembers the newest logged id it dispatched (`seen`, to drop an event
 * it already has: ids are decimal strings, §9.1) and where a stream of its own would resume (`resume`: that, or the
 * leader's `ready` id); when the leader's tab goes, the next leader resumes with `?after=` (§9.3), so nothing is lost
 * and the dedupe by id keeps anything from coming twice. Ephemeral events carry no id (§14.5) and pass as they come.
 * The leader holds the lock until its page goes, or until its stream is refused for good (401 once its session
 * ended, 429, 503: EventSource does not try again by itself): then the next tab in line, say one of a newer session,
 * takes the stream over, and this one queues again 15 s later (§9.7). Without Web Locks (an insecure origin, or a
 * document they are refused to) or BroadcastChannel, a tab with something live (`[data-live]`) opens its own.
 * A `reset` (§9.3: the resume id cannot be honoured, say after a night asleep past the log's retention, or a server
 * whose log began again) reaches every tab as a cancelable `chat:reset` on `document`, and the ids it knew are
 * forgotten: the chat screen re-reads its regions in place (screen-live.ts); any other page with something live
 * reloads, unless a part cancelled the event.
 * (No comments inside the script: its text goes over the wire with every page.)
 */
export const EVENT_STREAM = `
  const url = document.body.dataset.events;
  const reader = document.body.dataset.reader;
  if (!url || !reader || !window.EventSource) return;
  const shared = !!(navigator.locks && window.BroadcastChannel);
  if (!shared && !document.querySelector('[data-live]')) return;
  const isAfter = (id, than) => than === '' || id.length > than.length || (id.length === than.length && id > than);
  let seen = '';
  let resume = '';
  const hint = (id) => { if (typeof id === 'string' && /^[0-9]+$/.test(id) && isAfter(id, resume)) resume = id; };
  const dispatch = (detail) => {
    const id = detail.event.id;
    if (typeof id === 'string') {
      if (!isAfter(id, seen)) return false;
      seen = id;
      hint(id);
    }
    document.dispatchEvent(new CustomEvent('chat:event', { detail }));
    return true;
  };
  const reread = () => {
    seen = '';
    resume = '';
    if (document.dispatchEvent(new CustomEvent('chat:reset', { cancelable: true })) && document.querySelector('[data-live]')) location.reload();
  };
  const say = (role) => { document.body.dataset.eventStream = role; };
  const open = (relay, refused) => {
    const address = new URL(url, location.href);
    if (resume !== '') address.searchParams.set('after', resume);
    const source = new EventSource(address.href);
    for (const type of ${JSON.stringify(STREAM_TYPES)}) {
      source.addEventListener(type, (frame) => {
        const detail = { id: frame.lastEventId, type, event: JSON.parse(frame.data) };
        if (dispatch(detail)) relay({ detail });
      });
    }
    source.addEventListener('reset', () => {
      reread();
      relay({ reset: true });
    });
    source.addEventListener('ready', (frame) => {
      hint(frame.lastEventId);
      relay({ resume });
    });
    source.addEventListener('error', () => { if (source.readyState === EventSource.CLOSED) refused(); });
  };
  if (!shared) {
    say('own');
    return open(() => {}, () => {});
  }
  const name = 'chat-events:' + reader;
  const channel = new BroadcastChannel(name);
  let leading = false;
  channel.onmessage = ({ data }) => {
    if (data.detail) dispatch(data.detail);
    else if (data.reset) reread();
    else if (data.resume !== undefined) hint(data.resume);
    else if (data.hello && leading && resume !== '') channel.postMessage({ resume });
  };
  say('follower');
  channel.postMessage({ hello: true });
  const lead = () => navigator.locks.request(name, () => new Promise((release) => {
    leading = true;
    say('leader');
    open((message) => channel.postMessage(message), () => {
      leading = false;
      say('follower');
      release();
      setTimeout(lead, 15000);
    });
  })).catch(() => {
    if (!leading && document.querySelector('[data-live]')) { say('own'); open(() => {}, () => {}); }
  });
  lead();
`;
