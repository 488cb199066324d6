// Personal access tokens (docs/protocol.md §16.1): made by their user, or by a bot's owner for the bot; the token
// shown once; listed without it; deleted, which ends the streams it holds on every process (session.ended).
import type { Reply, RequestContext } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { fieldsOf, type CollectionSpec } from '../../parsers/query.ts';
import { publicAccessToken } from '../../representations/integration-schemas.ts';
import { newId } from '../../storage/ids.ts';
import type { AccessTokenRow, UserRow } from '../../storage/store.ts';
import { collectionReply } from '../collection.ts';
import { appendSessionsEnded } from '../session/sessions-ended.ts';
import { singleReply } from '../single-reply.ts';
import { hashAccessToken, newAccessToken } from './access-token.ts';
import { validateNewToken } from './validate.ts';
import { PATHS } from '../../paths.ts';

export const TOKEN_FIELDS: CollectionSpec = {
  fields: fieldsOf({ id: 'id', name: 'string', scopes: 'string', createdAt: 'timestamp', lastUsedAt: 'timestamp', expiresAt: 'timestamp' }),
};

/** The user whose tokens the caller manages: themselves (a person), or a bot they own. 404 for no user, 403 for another's. */
async function findTokenOwner(ctx: RequestContext): Promise<UserRow> {
  const userId = ctx.params['userId']!;
  const user = await ctx.services.storage.users.findUserById(userId);
  if (!user) throw new HttpError('ERR_NOT_FOUND', `No user ${userId}`);
  const caller = ctx.caller!.userId;
  const mine = user.kind === 'user' ? user.id === caller : user.ownerId === caller;
  if (!mine) throw new HttpError('ERR_FORBIDDEN', user.kind === 'bot' ? 'Only the bot\'s owner manages its tokens' : 'Only its user manages a person\'s tokens');
  return user;
}

export async function createToken(ctx: RequestContext): Promise<Reply> {
  const { storage, clock, config } = ctx.services;
  const user = await findTokenOwner(ctx);
  const now = clock.now();
  const wanted = validateNewToken(await readJsonBody(ctx, config.maxBodyBytes, ['application/json']), now);
  const token = newAccessToken();
  const row: AccessTokenRow = { id: newId(now), userId: user.id, tokenHash: hashAccessToken(token), createdAt: now, lastUsedAt: null, ...wanted };
  await storage.integrations.insertAccessToken(row);
  return singleReply('token', publicAccessToken(row, token), [{ rel: 'collection', href: ctx.href(PATHS.tokens, { userId: user.id }) }], {
    status: 201, headers: { Location: ctx.href(PATHS.token, { userId: user.id, tokenId: row.id }) },
  });
}

export async function listTokens(ctx: RequestContext): Promise<Reply> {
  const user = await findTokenOwner(ctx);
  return collectionReply<AccessTokenRow>(ctx, {
    type: 'token',
    spec: TOKEN_FIELDS,
    list: (query) => ctx.services.storage.integrations.listAccessTokens(user.id, query),
    toPublic: (row) => publicAccessToken(row),
    itemHref: (token) => ctx.href(PATHS.token, { userId: user.id, tokenId: String(token['id']) }),
  });
}

async function findToken(ctx: RequestContext): Promise<AccessTokenRow> {
  const user = await findTokenOwner(ctx);
  const tokenId = ctx.params['tokenId']!;
  const token = await ctx.services.storage.integrations.findAccessToken(tokenId);
  if (!token || token.userId !== user.id) throw new HttpError('ERR_NOT_FOUND', `No token ${tokenId}`);
  return token;
}

export async function getToken(ctx: RequestContext): Promise<Reply> {
  const token = await findToken(ctx);
  return singleReply('token', publicAccessToken(token), [{ rel: 'collection', href: ctx.href(PATHS.tokens, { userId: token.userId }) }]);
}

/** The token stops working at once, and every stream it holds ends, on every process (docs/protocol.md §9.7). */
export async function revokeToken(ctx: RequestContext): Promise<Reply> {
  const { storage, clock } = ctx.services;
  const token = await findToken(ctx);
  await storage.transaction(async (tx) => {
    if (await tx.integrations.deleteAccessToken(token.id)) await appendSessionsEnded(tx, token.userId, [token.id], clock.now());
  });
  return { status: 204 };
}
