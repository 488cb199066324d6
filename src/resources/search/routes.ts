// Routes of full-text search. GET is the only one, so OPTIONS answers Allow: OPTIONS, GET, HEAD and POST is 405.
import type { Route } from '../context.ts';
import { search, SEARCH_FIELDS } from './handlers.ts';
import { PATHS } from '../../paths.ts';

export const SEARCH_ROUTES: Route[] = [
  {
    method: 'GET', pattern: PATHS.search, handler: search, summary: 'Search message text, chat titles and logins (q: the words to find, prefixes match)',
    responses: {
      200: {
        description: 'Matching messages (in the caller\'s chats), chats and users, newest first unless sorted',
        body: { name: 'SearchPage', schema: { type: 'object', required: ['data', 'meta'], additionalProperties: false, properties: { data: { type: 'array', items: { $ref: '#/components/schemas/SearchResult' } }, meta: { $ref: '#/components/schemas/PageMeta' } } } },
        headers: ['ETag'], optionalHeaders: ['Link'],
      },
    },
    query: {
      fields: SEARCH_FIELDS,
      parameters: [{ name: 'q', required: true, description: 'The words to find; each matches as a prefix, all must match', schema: { type: 'string', minLength: 1 } }],
    },
  },
];
