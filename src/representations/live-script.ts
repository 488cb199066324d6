// The one script of the HTML pages, allowed by its hash (CSP): its parts, each in src/representations/client/, each in
// a scope of its own. They talk through the document: 'chat:event' carries each event of the one stream
// (client/event-stream.ts), 'chat:updated' announces markup a part swapped in. Every page works the same without it.
import { createHash } from 'node:crypto';
import { EVENT_STREAM } from './client/event-stream.ts';
import { LIVE_CHAT } from './client/live-chat.ts';
import { PAGE_BASICS } from './client/page-basics.ts';
import { PUSH_PART } from './client/push.ts';

/** In order: the listeners first, the stream that feeds them last. Each part reads what it needs from data-* attributes. */
const PARTS = [PAGE_BASICS, PUSH_PART, LIVE_CHAT, EVENT_STREAM];

/** The parts, each an arrow function called at once: a part may `return` early without stopping the others. */
export const LIVE_SCRIPT = PARTS.map((part) => `(() => {${part}})();`).join('\n');

export const LIVE_SCRIPT_HASH = createHash('sha256').update(LIVE_SCRIPT, 'utf8').digest('base64');
