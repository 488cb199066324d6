// Routes of message actions.
import type { Route } from '../context.ts';
import { page } from '../../openapi/route-doc.ts';
import { ACTION_FIELDS, listMessageActions, listTopLevelMessageActions } from './handlers.ts';
import { PATHS } from '../../paths.ts';

export const ACTION_ROUTES: Route[] = [
  {
    method: 'GET', pattern: PATHS.messageActions, handler: listMessageActions, summary: 'List what the caller may do to a message now',
    responses: { 200: page('Action') }, query: { fields: ACTION_FIELDS },
  },
  {
    method: 'GET', pattern: PATHS.topMessageActions, handler: listTopLevelMessageActions, summary: 'List what the caller may do to a message now (by its id alone)',
    responses: { 200: page('Action') }, query: { fields: ACTION_FIELDS },
  },
];
