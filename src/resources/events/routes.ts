// Routes of real-time events: one path, answered as Server-Sent Events or as a long-poll.
import type { Route } from '../../http/context.ts';
import { getEvents } from './handlers.ts';
import { EVENTS_PATH } from './paths.ts';

export const EVENT_ROUTES: Route[] = [
  {
    method: 'GET',
    pattern: EVENTS_PATH,
    handler: getEvents,
    extraMediaTypes: ['text/event-stream'],
    summary: 'Events of the caller\'s chats: a Server-Sent Events stream (Accept: text/event-stream), or a long-poll (after, wait)',
  },
];
