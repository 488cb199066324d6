// Routes of read markers.
import type { Route } from '../context.ts';
import { one } from '../../openapi/route-doc.ts';
import { id, nullable } from '../../openapi/schema.ts';
import { envelopeSchema } from '../service/openapi.ts';
import { getReadMarker, putReadMarker } from './handlers.ts';
import { PATHS } from '../../paths.ts';

const MARKER_BODY = envelopeSchema({
  chatId: id('Equal to the chat id in the path'),
  lastReadId: nullable(id('A message of the chat; null marks the whole chat unread')),
}, ['lastReadId']);

export const READ_MARKER_ROUTES: Route[] = [
  { method: 'GET', pattern: PATHS.read, handler: getReadMarker, summary: 'Read the caller\'s read marker of a chat and its unread count', responses: { 200: one('ReadMarker') } },
  {
    method: 'PUT', pattern: PATHS.read, handler: putReadMarker, summary: 'Move the caller\'s read marker to a message of the chat, forward or back',
    requestBody: { contentTypes: ['application/json'], schema: MARKER_BODY }, responses: { 200: one('ReadMarker', 'The marker as moved') },
  },
];
