// Routes of the login session.
import type { Route } from '../../http/context.ts';
import { getSession, logIn, logOut, prolongSession } from './handlers.ts';

const PATCH_TYPES = ['application/json', 'application/merge-patch+json'] as const;

export const SESSION_ROUTES: Route[] = [
  { method: 'POST', pattern: '/session', handler: logIn, auth: 'public', summary: 'Log in: create a session and get its token', requestBody: { contentTypes: ['application/json', 'application/x-www-form-urlencoded'] } },
  { method: 'GET', pattern: '/session', handler: getSession, auth: 'optional', summary: 'Describe the caller\'s session (as HTML without a session: the login form)' },
  { method: 'PATCH', pattern: '/session', handler: prolongSession, summary: 'Prolong the session', requestBody: { contentTypes: PATCH_TYPES }, acceptPatch: PATCH_TYPES },
  { method: 'DELETE', pattern: '/session', handler: logOut, summary: 'Log out', writeLimited: false },
];
