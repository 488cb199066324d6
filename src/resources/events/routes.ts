// Routes of real-time events: one path, answered as Server-Sent Events or as a long-poll.
import type { Route } from '../context.ts';
import { integer, text } from '../../openapi/schema.ts';
import { EVENT_BATCH } from '../../representations/schemas.ts';
import { getEvents } from './handlers.ts';
import { PATHS } from '../../paths.ts';

const EVENT_ID = text(undefined, { pattern: '^[0-9]+$' });

export const EVENT_ROUTES: Route[] = [
  {
    method: 'GET',
    pattern: PATHS.events,
    handler: getEvents,
    extraMediaTypes: ['text/event-stream'],
    summary: 'Events of the caller\'s chats: a Server-Sent Events stream (Accept: text/event-stream), or a long-poll (after, wait)',
    responses: {
      200: {
        description: 'text/event-stream: replay after the resume id, `ready`, then live events; otherwise (long-poll) the events after `after`',
        raw: ['text/event-stream'], body: { name: 'EventBatch', schema: EVENT_BATCH }, optionalHeaders: ['Link', 'ETag'],
      },
      304: { description: 'Not Modified: a long-poll whose If-None-Match matched (no body)', headers: ['ETag'] },
    },
    query: {
      parameters: [
        { name: 'after', description: 'Resume after this event id (a first connection; Last-Event-ID wins)', schema: EVENT_ID },
        { name: 'wait', description: 'Long-poll: seconds to wait for an event when there is none (0-30, default 25)', schema: integer({ minimum: 0, maximum: 30 }) },
        { name: 'Last-Event-ID', in: 'header', description: 'Resume after this event id (what EventSource sends on reconnect)', schema: EVENT_ID },
      ],
    },
    // 410: a long-poll's `after` older than the log; 429: five streams of the user open; 503: the server's cap.
    problems: [410, 429, 503],
  },
];
