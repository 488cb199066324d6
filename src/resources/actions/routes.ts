// Routes of message actions.
import type { Route } from '../context.ts';
import { page } from '../../openapi/route-doc.ts';
import { MESSAGE_ACTIONS_PATH, TOP_MESSAGE_ACTIONS_PATH } from '../chats/paths.ts';
import { ACTION_FIELDS, listMessageActions, listTopLevelMessageActions } from './handlers.ts';

export const ACTION_ROUTES: Route[] = [
  {
    method: 'GET', pattern: MESSAGE_ACTIONS_PATH, handler: listMessageActions, summary: 'List what the caller may do to a message now',
    responses: { 200: page('Action') }, query: { fields: ACTION_FIELDS },
  },
  {
    method: 'GET', pattern: TOP_MESSAGE_ACTIONS_PATH, handler: listTopLevelMessageActions, summary: 'List what the caller may do to a message now (by its id alone)',
    responses: { 200: page('Action') }, query: { fields: ACTION_FIELDS },
  },
];
