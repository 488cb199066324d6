// Routes of a message's edit history: under its chat, and under its top-level address.
import type { Route } from '../context.ts';
import { one, page } from '../../openapi/route-doc.ts';
import { text } from '../../openapi/schema.ts';
import { getRevision, listRevisions, REVISION_FIELDS } from './handlers.ts';
import { PATHS } from '../../paths.ts';

const REVISION_ID = { parameters: [{ name: 'revisionId', in: 'path' as const, description: '1 is the text the message was posted with; the last is the current text', schema: text(undefined, { pattern: '^[1-9][0-9]*$' }) }] };

export const REVISION_ROUTES: Route[] = [
  { method: 'GET', pattern: PATHS.revisions, handler: listRevisions, summary: 'List every version of a message\'s text, oldest first (the last is the current text)', responses: { 200: page('Revision') }, query: { fields: REVISION_FIELDS } },
  { method: 'GET', pattern: PATHS.revision, handler: getRevision, summary: 'Read one version of a message\'s text', responses: { 200: one('Revision') }, query: REVISION_ID },
  { method: 'GET', pattern: PATHS.topRevisions, handler: listRevisions, summary: 'List every version of a message\'s text (by the message id alone)', responses: { 200: page('Revision') }, query: { fields: REVISION_FIELDS } },
  { method: 'GET', pattern: PATHS.topRevision, handler: getRevision, summary: 'Read one version of a message\'s text (by the message id alone)', responses: { 200: one('Revision') }, query: REVISION_ID },
];
