// Routes of avatars; the image bytes answer without a token and are never negotiated.
import type { Route } from '../../http/context.ts';
import {
  AVATAR_IMAGE_PATH, AVATAR_PATH, AVATARS_PATH, createAvatar, deleteAvatar, getAvatar, getAvatarImage, listAvatars, UPLOAD_TYPES,
} from './handlers.ts';

const UPLOAD_SCHEMA = {
  type: 'object',
  required: ['avatar', 'x', 'y', 'width', 'height'],
  additionalProperties: false,
  properties: {
    avatar: { type: 'string', description: 'multipart: the image file part; JSON: the image in base64 or as a data: URL' },
    x: { type: 'number', minimum: 0 },
    y: { type: 'number', minimum: 0 },
    width: { type: 'number', exclusiveMinimum: 0 },
    height: { type: 'number', exclusiveMinimum: 0 },
  },
};

export const AVATAR_ROUTES: Route[] = [
  {
    method: 'POST', pattern: AVATARS_PATH, handler: createAvatar, summary: 'Upload an avatar image and its zone (the user themself only)',
    requestBody: { contentTypes: UPLOAD_TYPES, schema: UPLOAD_SCHEMA },
  },
  { method: 'GET', pattern: AVATARS_PATH, handler: listAvatars, summary: "List a user's avatars, the current one first, then newest first" },
  { method: 'GET', pattern: AVATAR_PATH, handler: getAvatar, summary: 'Read an avatar' },
  { method: 'DELETE', pattern: AVATAR_PATH, handler: deleteAvatar, summary: 'Delete an avatar (its owner only; resets the user\'s current avatar)' },
  { method: 'GET', pattern: AVATAR_IMAGE_PATH, handler: getAvatarImage, auth: 'public', raw: true, summary: 'The image bytes of an avatar (no token needed)' },
];
