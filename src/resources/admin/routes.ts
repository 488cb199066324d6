// The route of the administration page.
import type { Route } from '../context.ts';
import { one } from '../../openapi/route-doc.ts';
import { getAdminPage } from './handlers.ts';
import { PATHS } from '../../paths.ts';

export const ADMIN_ROUTES: Route[] = [
  {
    method: 'GET', pattern: PATHS.admin, handler: getAdminPage, summary: 'The administration page (HTML); as JSON or XML, where its collections are',
    responses: { 200: one('AdminIndex', 'Where the users, invites and audit log are (as HTML: the page of people, invites and the audit log)') }, problems: [403],
  },
];
