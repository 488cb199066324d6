// Routes of a user's sessions (docs/protocol.md §3.5).
import type { Route } from '../context.ts';
import { noContent, one, page } from '../../openapi/route-doc.ts';
import { deleteUserSession, deleteUserSessions, getUserSession, listUserSessions, USER_SESSION_FIELDS } from './handlers.ts';
import { PATHS } from '../../paths.ts';

export const USER_SESSION_ROUTES: Route[] = [
  {
    method: 'GET', pattern: PATHS.userSessions, handler: listUserSessions, tokens: 'refused', summary: 'List a user\'s sessions (the user or an administrator)',
    responses: { 200: page('UserSession') }, query: { fields: USER_SESSION_FIELDS }, problems: [403],
  },
  {
    method: 'DELETE', pattern: PATHS.userSessions, handler: deleteUserSessions, tokens: 'refused', summary: 'End every other session of the user (an administrator: all of them)',
    responses: { 204: noContent('Ended') }, writeLimited: false,
  },
  { method: 'GET', pattern: PATHS.userSession, handler: getUserSession, tokens: 'refused', summary: 'Read one session of a user', responses: { 200: one('UserSession') }, problems: [403] },
  {
    method: 'DELETE', pattern: PATHS.userSession, handler: deleteUserSession, tokens: 'refused', summary: 'End one session of a user: its token answers 401, its streams close',
    responses: { 204: { description: 'Ended', optionalHeaders: ['Set-Cookie'] } }, writeLimited: false,
  },
];
