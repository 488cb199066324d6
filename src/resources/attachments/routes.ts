// Routes of attachments: uploading a file to a chat, and reading the bytes of one (docs/protocol.md §15).
import type { Route } from '../context.ts';
import { created } from '../../openapi/route-doc.ts';
import { object, text } from '../../openapi/schema.ts';
import { envelopeSchema } from '../service/openapi.ts';
import { createAttachment, getAttachmentContent, UPLOAD_TYPES } from './handlers.ts';
import { PATHS } from '../../paths.ts';

const MULTIPART_UPLOAD = object({
  file: text(undefined, { contentMediaType: 'application/octet-stream', description: 'The file, as a part with a filename' }),
});
const JSON_UPLOAD = envelopeSchema({
  name: text({ min: 1, max: 255 }, { description: 'The file name, without a path' }),
  contentType: text({ min: 1, max: 255 }, { description: 'The type the client believes it is; the server decides by the bytes' }),
  content: text(undefined, { description: 'The bytes in base64, or as a data: URL; at most 4 MiB (multipart for more)' }),
}, ['name', 'content']);
// What the bytes are served as: a validated image's own type, else bytes to save.
const SERVED_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/octet-stream'] as const;

export const ATTACHMENT_ROUTES: Route[] = [
  {
    method: 'POST', pattern: PATHS.attachments, handler: createAttachment, summary: 'Upload a file to post with a message within the hour (any member)',
    requestBody: {
      contentTypes: UPLOAD_TYPES,
      schemaByType: { 'multipart/form-data': MULTIPART_UPLOAD, 'application/json': JSON_UPLOAD },
      example: { data: { name: 'notes.txt', contentType: 'text/plain', content: 'aGVsbG8K' } },
    },
    responses: { 201: created('Attachment', 'Uploaded: unused until a message names it in `attachments`') },
  },
  {
    method: 'GET', pattern: PATHS.attachment, handler: getAttachmentContent, raw: true, problems: [416],
    summary: 'The bytes of an attachment (members of the chat): Range, If-Range and HEAD supported',
    responses: {
      200: { description: 'Every byte, cacheable for a year by the member', raw: SERVED_TYPES, headers: ['ETag', 'Cache-Control'] },
      206: { description: 'The ranges asked for: one, or several as multipart/byteranges', raw: [...SERVED_TYPES, 'multipart/byteranges'], headers: ['ETag', 'Cache-Control'] },
    },
  },
];
