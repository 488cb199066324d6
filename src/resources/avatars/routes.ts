// Routes of avatars; the image bytes answer without a token and are never negotiated.
import type { Route } from '../context.ts';
import { created, noContent, one, page } from '../../openapi/route-doc.ts';
import { number, object, text } from '../../openapi/schema.ts';
import { AVATAR_FIELDS, createAvatar, deleteAvatar, getAvatar, getAvatarImage, listAvatars, UPLOAD_TYPES } from './handlers.ts';
import { PATHS } from '../../paths.ts';

const ZONE = {
  x: number({ minimum: 0 }),
  y: number({ minimum: 0 }),
  width: number({ exclusiveMinimum: 0, description: 'x + width must not pass imageWidth' }),
  height: number({ exclusiveMinimum: 0, description: 'y + height must not pass imageHeight' }),
};
// Multipart text parts carry the numbers as decimal text; JSON carries them as numbers.
const PART = text(undefined, { pattern: '^-?[0-9]+(\\.[0-9]+)?$' });
const MULTIPART_UPLOAD = object({
  avatar: text(undefined, { contentMediaType: 'application/octet-stream', description: 'The image file: PNG, JPEG, GIF or WebP' }),
  x: PART, y: PART, width: PART, height: PART,
});
const JSON_UPLOAD = object({ avatar: text(undefined, { description: 'The image in base64, or as a data: URL' }), ...ZONE });
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export const AVATAR_ROUTES: Route[] = [
  {
    method: 'POST', pattern: PATHS.avatars, handler: createAvatar, summary: 'Upload an avatar image and its zone (the user themself only)',
    requestBody: {
      contentTypes: UPLOAD_TYPES,
      schemaByType: { 'multipart/form-data': MULTIPART_UPLOAD, 'application/json': JSON_UPLOAD },
      example: { avatar: 'data:image/png;base64,iVBORw0KGgo...', x: 0, y: 0, width: 64, height: 64 },
    },
    responses: { 201: created('Avatar', 'Created; it becomes the current avatar only through PATCH /users') },
  },
  {
    method: 'GET', pattern: PATHS.avatars, handler: listAvatars, summary: "List a user's avatars, the current one first, then newest first",
    responses: { 200: page('Avatar') }, query: { fields: AVATAR_FIELDS },
  },
  { method: 'GET', pattern: PATHS.avatar, handler: getAvatar, summary: 'Read an avatar', responses: { 200: one('Avatar') } },
  {
    method: 'DELETE', pattern: PATHS.avatar, handler: deleteAvatar, summary: 'Delete an avatar (its owner only; resets the user\'s current avatar)',
    responses: { 204: noContent('Deleted') },
  },
  {
    method: 'GET', pattern: PATHS.avatarImage, handler: getAvatarImage, auth: 'public', raw: true, summary: 'The image bytes of an avatar (no token needed)',
    responses: { 200: { description: 'The image, cacheable for a year', raw: IMAGE_TYPES, headers: ['ETag', 'Cache-Control'] } },
  },
];
