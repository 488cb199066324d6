// The one script of the HTML pages, allowed by its hash (CSP): its parts, each in src/representations/client/, each in
// a scope of its own. They talk through the document: 'chat:event' carries each event of the one stream
// (client/event-stream.ts), 'chat:updated' announces markup a part swapped in. Every page works the same without it.
import { createHash } from 'node:crypto';
import { CHAT_SCREEN } from './client/chat-screen.ts';
import { EVENT_STREAM } from './client/event-stream.ts';
import { LIVE_CHAT } from './client/live-chat.ts';
import { PAGE_BASICS } from './client/page-basics.ts';
import { PUSH_PART } from './client/push.ts';
import { REACTION_PICKER } from './client/reaction-picker.ts';
import { READ_MARKER } from './client/read-marker.ts';

/**
 * In order: the listeners first, the stream that feeds them last. The chat screen comes before the times are localised,
 * so it sees each message as the server wrote it. Each part reads what it needs from data-* attributes.
 */
const PARTS = [CHAT_SCREEN, PAGE_BASICS, PUSH_PART, LIVE_CHAT, READ_MARKER, REACTION_PICKER, EVENT_STREAM];

/** The parts, each an arrow function called at once: a part may `return` early without stopping the others. */
export const LIVE_SCRIPT = PARTS.map((part) => `(() => {${part}})();`).join('\n');

export const LIVE_SCRIPT_HASH = createHash('sha256').update(LIVE_SCRIPT, 'utf8').digest('base64');
