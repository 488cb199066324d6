// Routes of users.
import type { Route } from '../context.ts';
import { created, one, page } from '../../openapi/route-doc.ts';
import { boolean, id, nullable, object, oneOfValues, text } from '../../openapi/schema.ts';
import { getUser, listUsers, REGISTRATION_TYPES, registerUser, updateUser, USER_FIELDS } from './handlers.ts';
import { INVITE_CODE_RULE, LOGIN_RULE, PASSWORD_RULE } from './validate.ts';
import { PATHS } from '../../paths.ts';

const PATCH_TYPES = ['application/json', 'application/merge-patch+json'] as const;

// The same rules validate.ts enforces (docs/protocol.md §1.7).
const REGISTRATION = object({
  login: text(LOGIN_RULE),
  password: text(PASSWORD_RULE),
  inviteCode: text(INVITE_CODE_RULE, { description: 'The code of an invite: needed while sign-up is by invite (--registration invite, the default)' }),
}, { optional: ['inviteCode'] });
const USER_CHANGES = object({
  id: text(),
  login: text(LOGIN_RULE),
  password: text(PASSWORD_RULE),
  currentPassword: text({ min: 1, max: 1024 }, { description: 'Needed to change the password' }),
  avatar: nullable(id('The id of one of the caller\'s avatars, or null')),
  role: oneOfValues(['admin', 'member'], 'Only an admin changes a role; the last active admin cannot be demoted (409)'),
  active: boolean('Only an admin sets it: false deactivates the account (its sessions end), true restores it; the last active admin stays (409)'),
}, { optional: ['id', 'login', 'password', 'currentPassword', 'avatar', 'role', 'active'] });
const UPDATE = { contentTypes: PATCH_TYPES, schema: USER_CHANGES, example: { login: 'alice2' } };

export const USER_ROUTES: Route[] = [
  {
    method: 'POST', pattern: PATHS.users, handler: registerUser, auth: 'public', summary: 'Register a user (does not log in; the HTML sign-up form does)',
    requestBody: { contentTypes: REGISTRATION_TYPES, schema: REGISTRATION, example: { login: 'alice', password: 'correct horse battery' } },
    // 403: sign-up needs an invite or is closed, or the sign-up form was posted from a foreign Origin; 503: password hashing is busy.
    // 401: closed sign-up, and the token meant to be an admin's is unknown or expired.
    responses: {
      201: created('User', 'Registered: the user (not logged in)'),
      303: { description: 'The HTML sign-up form (a form-urlencoded body) signs the new user in and goes on to /chats (docs/html.md); a browser already signed in goes on to the new user\'s page', headers: ['Location'], optionalHeaders: ['Set-Cookie'] },
    },
    problems: [401, 403, 409, 503],
  },
  { method: 'GET', pattern: PATHS.users, handler: listUsers, summary: 'List users', responses: { 200: page('User') }, query: { fields: USER_FIELDS } },
  {
    method: 'PATCH', pattern: PATHS.users, handler: updateUser, summary: 'Update the caller', requestBody: UPDATE, acceptPatch: PATCH_TYPES,
    responses: { 200: one('User', 'The user as changed') }, problems: [409, 503],
  },
  { method: 'GET', pattern: PATHS.user, handler: getUser, summary: 'Read a user', responses: { 200: one('User') } },
  {
    method: 'PATCH', pattern: PATHS.user, handler: updateUser, summary: 'Update the caller, or (an admin) anyone\'s role (403 otherwise)', requestBody: UPDATE, acceptPatch: PATCH_TYPES,
    responses: { 200: one('User', 'The user as changed') }, problems: [409, 503],
  },
];
