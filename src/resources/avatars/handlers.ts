// Avatars (docs/protocol.md §3): upload in either form, list (current first), read, delete, and the public image bytes.
import type { Reply, RequestContext } from '../context.ts';
import { checkPreconditions, etagOf, etagOfBytes } from '../../http/conditional.ts';
import { HttpError } from '../../http/http-error.ts';
import { JSON_TYPES, limitBody, mediaTypeOf, readJsonObject } from '../../http/read-body.ts';
import { fieldsOf, type CollectionSpec, type FieldSpec } from '../../parsers/query.ts';
import { publicAvatar } from '../../representations/public-fields.ts';
import type { Resource } from '../../representations/representation.ts';
import { newId } from '../../storage/ids.ts';
import type { AvatarRow, UserRow } from '../../storage/store.ts';
import { pageLinks, parseCollectionQuery } from '../collection.ts';
import { avatarTooLarge, jsonBodyLimit, multipartBodyLimit, readMultipartUpload, unsupportedUploadType, validateJsonUpload, type AvatarUpload } from './validate.ts';
import { PATHS } from '../../paths.ts';
import { singleReply } from '../single-reply.ts';

export const UPLOAD_TYPES = ['multipart/form-data', 'application/json'] as const;

const CREATED_AT: FieldSpec = { name: 'createdAt', type: 'timestamp' };
// Not a public field: only the default order uses it.
const IS_CURRENT: FieldSpec = { name: 'current', type: 'number' };

export const AVATAR_FIELDS: CollectionSpec = {
  fields: fieldsOf({
    id: 'id', userId: 'id', contentType: 'string', imageWidth: 'number', imageHeight: 'number',
    x: 'number', y: 'number', width: 'number', height: 'number', createdAt: 'timestamp',
  }),
};

// The bytes behind an id never change, so caches may keep them for a year without asking again (RFC 8246).
const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
// User-supplied bytes: should a browser ever render them as a document, they run nothing and reach nothing.
const IMAGE_CONTENT_SECURITY_POLICY = "default-src 'none'; sandbox";

function toPublic(ctx: RequestContext, row: AvatarRow): Resource {
  return publicAvatar(row, ctx.href(PATHS.avatarImage, { userId: row.userId, avatarId: row.id }));
}

function avatarReply(ctx: RequestContext, row: AvatarRow, status = 200, headers: Record<string, string> = {}): Reply {
  const userParams = { userId: row.userId };
  return singleReply('avatar', toPublic(ctx, row), [
    { rel: 'user', href: ctx.href(PATHS.user, userParams) },
    { rel: 'collection', href: ctx.href(PATHS.avatars, userParams) },
  ], { status, headers, enveloped: false });
}

async function findUserOr404(ctx: RequestContext): Promise<UserRow> {
  const userId = ctx.params['userId']!;
  const user = await ctx.services.storage.users.findUserById(userId);
  if (!user) throw new HttpError('ERR_NOT_FOUND', `No user ${userId}`);
  return user;
}

/** An avatar addressed under another user's path does not exist there: 404, like an unknown id. */
async function findAvatarOr404(ctx: RequestContext): Promise<AvatarRow> {
  const { userId, avatarId } = ctx.params as { userId: string; avatarId: string };
  const row = await ctx.services.storage.avatars.findAvatarById(avatarId);
  if (row?.userId !== userId) throw new HttpError('ERR_NOT_FOUND', `No avatar ${avatarId} of user ${userId}`);
  return row;
}

function requireSelf(ctx: RequestContext, userId: string, action: string): void {
  if (ctx.caller!.userId !== userId) throw new HttpError('ERR_FORBIDDEN', `Only the user themself may ${action} their avatars`);
}

export async function createAvatar(ctx: RequestContext): Promise<Reply> {
  const { storage, clock, config } = ctx.services;
  const user = await findUserOr404(ctx);
  requireSelf(ctx, user.id, 'upload');
  const upload = await readUpload(ctx, config.maxAvatarBytes);
  const now = clock.now();
  const row: AvatarRow = {
    id: newId(now),
    userId: user.id,
    contentType: upload.image.contentType,
    imageWidth: upload.image.width,
    imageHeight: upload.image.height,
    ...upload.zone,
    etag: etagOfBytes(upload.bytes),
    createdAt: now,
  };
  // Committed together with concurrent writes (group commit); answered only after the commit.
  await storage.writeTogether((tx) => tx.avatars.insertAvatar({ ...row, bytes: upload.bytes }));
  return avatarReply(ctx, row, 201, { Location: ctx.href(PATHS.avatar, { userId: user.id, avatarId: row.id }) });
}

/** Reads either form by its Content-Type; anything else is a 415 before a byte of the body is read. */
async function readUpload(ctx: RequestContext, maxAvatarBytes: number): Promise<AvatarUpload> {
  const { req } = ctx;
  const contentType = req.headers['content-type'] ?? '';
  const type = mediaTypeOf(contentType);
  const limits = { maxAvatarBytes, maxAvatarPixels: ctx.services.config.maxAvatarPixels };
  const tooLarge = (): HttpError => avatarTooLarge(maxAvatarBytes);
  if (type === 'application/json') return validateJsonUpload(await readJsonObject(req, jsonBodyLimit(maxAvatarBytes), JSON_TYPES, tooLarge), limits);
  if (type !== 'multipart/form-data') throw unsupportedUploadType(UPLOAD_TYPES);
  // Refused part-way, the connection closes after the answer (pipeline/handle-request.ts), rather than reading the rest.
  return readMultipartUpload(limitBody(req, multipartBodyLimit(maxAvatarBytes), tooLarge), contentType, limits);
}

/** docs/protocol.md §3.3: the current avatar first, then newest first; an explicit sort replaces that order. */
export async function listAvatars(ctx: RequestContext): Promise<Reply> {
  const user = await findUserOr404(ctx);
  const query = parseCollectionQuery(ctx, AVATAR_FIELDS);
  if (query.sort.length === 0) query.sort.push({ field: IS_CURRENT, direction: 'DESC' }, { field: CREATED_AT, direction: 'DESC' });
  const { rows, total } = await ctx.services.storage.collections.listAvatars(user.id, query);
  return {
    status: 200,
    representation: {
      kind: 'collection',
      type: 'avatar',
      data: rows.map((row) => toPublic(ctx, row)),
      meta: { total, limit: query.limit, offset: query.offset },
      links: [...pageLinks(ctx, query, total), { rel: 'user', href: ctx.href(PATHS.user, { userId: user.id }) }],
      itemHref: (item) => ctx.href(PATHS.avatar, { userId: user.id, avatarId: String(item['id']) }),
    },
  };
}

export async function getAvatar(ctx: RequestContext): Promise<Reply> {
  return avatarReply(ctx, await findAvatarOr404(ctx));
}

/** The owner only. Deleting the current avatar resets the user's `avatar` to null, which is a change of the user. */
export async function deleteAvatar(ctx: RequestContext): Promise<Reply> {
  const { storage, clock } = ctx.services;
  const row = await findAvatarOr404(ctx);
  requireSelf(ctx, row.userId, 'delete');
  checkPreconditions(ctx.req.headers, etagOf(toPublic(ctx, row)));
  await storage.transaction(async (tx) => {
    const user = (await tx.users.findUserById(row.userId))!;
    if (user.avatarId === row.id) await tx.users.updateUser({ ...user, avatarId: null, updatedAt: clock.now() });
    await tx.avatars.deleteAvatar(row.id);
  });
  return { status: 204 };
}

/** No token needed (docs/protocol.md §2.3). send.ts answers 304 for a matching If-None-Match and strips the body of HEAD. */
export async function getAvatarImage(ctx: RequestContext): Promise<Reply> {
  const { userId, avatarId } = ctx.params as { userId: string; avatarId: string };
  const image = await ctx.services.storage.avatars.findAvatarBytes(avatarId);
  if (image?.userId !== userId) throw new HttpError('ERR_NOT_FOUND', `No avatar ${avatarId} of user ${userId}`);
  return {
    status: 200,
    headers: {
      'ETag': image.etag,
      'Cache-Control': IMAGE_CACHE_CONTROL,
      'Content-Security-Policy': IMAGE_CONTENT_SECURITY_POLICY,
      'Content-Disposition': 'inline',
    },
    bytes: { data: image.bytes, contentType: image.contentType },
  };
}
