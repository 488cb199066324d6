// Routes of a message's edit history: under its chat, and under its top-level address.
import type { Route } from '../../http/context.ts';
import { REVISION_PATH, REVISIONS_PATH, TOP_REVISION_PATH, TOP_REVISIONS_PATH } from '../chats/paths.ts';
import { getRevision, listRevisions } from './handlers.ts';

export const REVISION_ROUTES: Route[] = [
  { method: 'GET', pattern: REVISIONS_PATH, handler: listRevisions, summary: 'List every version of a message\'s text, oldest first (the last is the current text)' },
  { method: 'GET', pattern: REVISION_PATH, handler: getRevision, summary: 'Read one version of a message\'s text' },
  { method: 'GET', pattern: TOP_REVISIONS_PATH, handler: listRevisions, summary: 'List every version of a message\'s text (by the message id alone)' },
  { method: 'GET', pattern: TOP_REVISION_PATH, handler: getRevision, summary: 'Read one version of a message\'s text (by the message id alone)' },
];
