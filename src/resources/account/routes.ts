// Routes of a whole account: its export and its erasure (docs/protocol.md §3.6, §3.7).
import type { Route } from '../context.ts';
import { noContent, one } from '../../openapi/route-doc.ts';
import { boolean, object, text } from '../../openapi/schema.ts';
import { eraseUser } from './erase.ts';
import { exportAccount } from './export.ts';
import { PATHS } from '../../paths.ts';

const ERASURE = object({
  password: text({ min: 1, max: 1024 }, { description: 'The account\'s password: needed to delete one\'s own account, not for an administrator deleting another' }),
  keepMessages: boolean('Keep the messages, shown as by "deleted user" (the same as ?keepMessages=true)'),
}, { optional: ['password', 'keepMessages'] });

export const ACCOUNT_ROUTES: Route[] = [
  {
    method: 'GET', pattern: PATHS.userExport, handler: exportAccount, summary: 'Download everything the server holds about a user (the user or an administrator)',
    responses: { 200: { ...one('Export', 'The export (JSON as an attachment)'), optionalHeaders: ['Content-Disposition', 'Cache-Control'] } }, problems: [403],
  },
  {
    method: 'DELETE', pattern: PATHS.user, handler: eraseUser, tokens: 'refused', summary: 'Delete an account for good (the user with their password, or an administrator)',
    requestBody: { contentTypes: ['application/json'], schema: ERASURE, required: false, example: { password: 'correct horse battery' } },
    query: { parameters: [{ name: 'keepMessages', description: 'true: the messages stay, shown as by "deleted user"; else they are deleted', schema: { type: 'boolean' } }] },
    responses: { 204: { description: 'Deleted', optionalHeaders: ['Set-Cookie'] } }, problems: [409],
  },
];
