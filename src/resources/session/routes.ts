// Routes of the login session.
import type { Route } from '../context.ts';
import { one } from '../../openapi/route-doc.ts';
import { object, text } from '../../openapi/schema.ts';
import { LOGIN_RULE, PASSWORD_RULE } from '../users/validate.ts';
import { getSession, logIn, logOut, prolongSession } from './handlers.ts';
import { PATHS } from '../../paths.ts';

const PATCH_TYPES = ['application/json', 'application/merge-patch+json'] as const;
const CREDENTIALS = object({ login: text(LOGIN_RULE), password: text(PASSWORD_RULE) });

export const SESSION_ROUTES: Route[] = [
  {
    method: 'POST', pattern: PATHS.session, handler: logIn, auth: 'public', summary: 'Log in: create a session and get its token',
    requestBody: { contentTypes: ['application/json', 'application/x-www-form-urlencoded'], schema: CREDENTIALS, example: { login: 'alice', password: 'correct horse battery' } },
    responses: {
      201: { description: 'Logged in: the token (shown only here); also set as the session cookie', body: { resource: 'NewSession', as: 'single' }, headers: ['Location', 'ETag', 'Set-Cookie'] },
      303: { description: 'The HTML login form (a form-urlencoded body) goes on to /chats', headers: ['Location', 'Set-Cookie'] },
    },
    // 401: wrong login or password (the same answer for both); 403: a form post from a foreign Origin.
    problems: [401, 403, 503],
  },
  {
    method: 'GET', pattern: PATHS.session, handler: getSession, tokens: 'refused', auth: 'optional', summary: 'Describe the caller\'s session (as HTML without a session: the login form)',
    responses: { 200: one('Session', 'The session (as HTML without a session: the login form)') },
    query: { parameters: [{ name: 'joined', description: '1: the login form says the account was just made (where the sign-up forms send the browser)', schema: { type: 'string', enum: ['1'] } }] },
  },
  {
    method: 'PATCH', pattern: PATHS.session, handler: prolongSession, tokens: 'refused', summary: 'Prolong the session (an empty body or {})',
    requestBody: { contentTypes: PATCH_TYPES, schema: object({}), required: false }, acceptPatch: PATCH_TYPES,
    responses: { 200: one('Session', 'The session with a later expiresAt') },
  },
  {
    method: 'DELETE', pattern: PATHS.session, handler: logOut, tokens: 'refused', summary: 'Log out', writeLimited: false,
    responses: { 204: { description: 'Logged out; the cookie is cleared', headers: ['Set-Cookie'] } },
  },
];
