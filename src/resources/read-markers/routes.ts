// Routes of read markers.
import type { Route } from '../../http/context.ts';
import { READ_PATH } from '../chats/paths.ts';
import { envelopeSchema } from '../service/openapi.ts';
import { getReadMarker, putReadMarker } from './handlers.ts';

const MARKER_BODY = envelopeSchema({
  chatId: { type: 'string' },
  lastReadId: { type: ['string', 'null'] },
});

export const READ_MARKER_ROUTES: Route[] = [
  { method: 'GET', pattern: READ_PATH, handler: getReadMarker, summary: 'Read the caller\'s read marker of a chat and its unread count' },
  { method: 'PUT', pattern: READ_PATH, handler: putReadMarker, summary: 'Move the caller\'s read marker to a message of the chat, forward or back', requestBody: { contentTypes: ['application/json'], schema: MARKER_BODY } },
];
