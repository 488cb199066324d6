// Routes of users.
import type { Route } from '../../http/context.ts';
import { getUser, listUsers, REGISTRATION_TYPES, registerUser, updateUser, USER_PATH } from './handlers.ts';

const PATCH_TYPES = ['application/json', 'application/merge-patch+json'] as const;

export const USER_ROUTES: Route[] = [
  { method: 'POST', pattern: '/users', handler: registerUser, auth: 'public', summary: 'Register a user (does not log in)', requestBody: { contentTypes: REGISTRATION_TYPES } },
  { method: 'GET', pattern: '/users', handler: listUsers, summary: 'List users' },
  { method: 'PATCH', pattern: '/users', handler: updateUser, summary: 'Update the caller', requestBody: { contentTypes: PATCH_TYPES }, acceptPatch: PATCH_TYPES },
  { method: 'GET', pattern: USER_PATH, handler: getUser, summary: 'Read a user' },
  { method: 'PATCH', pattern: USER_PATH, handler: updateUser, summary: 'Update the caller (403 for anyone else)', requestBody: { contentTypes: PATCH_TYPES }, acceptPatch: PATCH_TYPES },
];
