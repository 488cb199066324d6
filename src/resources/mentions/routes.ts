// Routes of the caller's mentions (docs/protocol.md §14.2).
import type { Route } from '../context.ts';
import { page } from '../../openapi/route-doc.ts';
import { listMentions, MENTION_FIELDS } from './handlers.ts';
import { PATHS } from '../../paths.ts';

export const MENTION_ROUTES: Route[] = [
  {
    method: 'GET', pattern: PATHS.mentions, handler: listMentions, summary: 'List the messages that mention the caller, in the chats they are in, newest first',
    responses: { 200: page('Message') }, query: { fields: MENTION_FIELDS },
  },
];
