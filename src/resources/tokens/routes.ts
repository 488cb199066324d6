// Routes of personal access tokens (docs/protocol.md §16.1): never callable with a token.
import type { Route } from '../context.ts';
import { created, noContent, one, page } from '../../openapi/route-doc.ts';
import { arrayOf, describe, nullable, object, oneOfValues, text, timestamp } from '../../openapi/schema.ts';
import { createToken, getToken, listTokens, revokeToken, TOKEN_FIELDS } from './handlers.ts';
import { PATHS } from '../../paths.ts';

const NEW_TOKEN = object({
  data: object({
    name: text({ min: 1, max: 100 }, { description: 'What it is for' }),
    expiresAt: describe(nullable(timestamp()), 'When it stops working, in the future; null or absent: never'),
    scopes: describe(arrayOf(oneOfValues(['read', 'write'])), '["read"] (GETs and the event stream) or ["read", "write"] (the default)'),
  }, { optional: ['expiresAt', 'scopes'] }),
});

export const TOKEN_ROUTES: Route[] = [
  {
    method: 'POST', pattern: PATHS.tokens, handler: createToken, tokens: 'refused', summary: 'Create a personal access token for yourself or a bot you own (shown only in this answer)',
    requestBody: { contentTypes: ['application/json'], schema: NEW_TOKEN, example: { data: { name: 'CI', scopes: ['read', 'write'] } } },
    responses: { 201: created('AccessToken', 'Created: the token, shown only here') }, problems: [403],
  },
  { method: 'GET', pattern: PATHS.tokens, handler: listTokens, tokens: 'refused', summary: 'List the tokens of yourself or a bot you own (never the secrets)', responses: { 200: page('AccessToken') }, query: { fields: TOKEN_FIELDS }, problems: [403] },
  { method: 'GET', pattern: PATHS.token, handler: getToken, tokens: 'refused', summary: 'Read a token (without its secret)', responses: { 200: one('AccessToken') }, problems: [403] },
  { method: 'DELETE', pattern: PATHS.token, handler: revokeToken, tokens: 'refused', summary: 'Revoke a token: it stops working and its streams end', responses: { 204: noContent('Revoked') }, problems: [403] },
];
