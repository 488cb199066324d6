// Routes of full-text search. GET is the only one, so OPTIONS answers Allow: OPTIONS, GET, HEAD and POST is 405.
import type { Route } from '../../http/context.ts';
import { search } from './handlers.ts';

export const SEARCH_ROUTES: Route[] = [
  { method: 'GET', pattern: '/search', handler: search, summary: 'Search message text, chat titles and logins (q: the words to find, prefixes match)' },
];
