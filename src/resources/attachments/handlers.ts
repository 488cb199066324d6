// Attachments of a chat (docs/protocol.md §15): upload one file to post later, and read the bytes of any (members only).
import type { Reply, RequestContext } from '../context.ts';
import { HttpError, invalidField } from '../../http/http-error.ts';
import { JSON_TYPES, mediaTypeOf, readJsonObject } from '../../http/read-body.ts';
import { attachmentSummary, publicAttachment } from '../../representations/public-fields.ts';
import type { AttachmentRow } from '../../storage/store.ts';
import { PATHS } from '../../paths.ts';
import { findVisibleChat } from '../chats/access.ts';
import { jsonBodyLimit, unsupportedUploadType } from '../avatars/validate.ts';
import { singleReply } from '../single-reply.ts';
import type { ReceivedFile } from './content-writer.ts';
import { attachmentReply } from './download.ts';
import { MAX_JSON_ATTACHMENT_BYTES, attachmentTooLarge } from './limits.ts';
import { dropReceived, FILE_FIELD, receiveJson, receiveMultipart } from './receive.ts';
import { saveReceived } from './save.ts';

export const UPLOAD_TYPES = ['multipart/form-data', 'application/json'] as const;

export function attachmentReplyFor(ctx: RequestContext, row: AttachmentRow, status = 200, headers?: Record<string, string>): Reply {
  const data = publicAttachment(attachmentSummary(row), row.chatId, ctx.services.config.basePath);
  return singleReply('attachment', data, [{ rel: 'chat', href: ctx.href(PATHS.chat, { chatId: row.chatId }) }], { status, ...(headers ? { headers } : {}) });
}

/** One file, multipart (a part named `file`) or JSON base64; 415 for any other body before a byte of it is read. */
async function receiveOne(ctx: RequestContext): Promise<ReceivedFile> {
  const { config } = ctx.services;
  const contentType = ctx.req.headers['content-type'] ?? '';
  const type = mediaTypeOf(contentType);
  if (type === 'application/json') {
    const limit = Math.min(config.maxAttachmentBytes, MAX_JSON_ATTACHMENT_BYTES);
    const tooLarge = (): HttpError => attachmentTooLarge('data.content', limit);
    return receiveJson(ctx, await readJsonObject(ctx.req, jsonBodyLimit(limit), JSON_TYPES, tooLarge));
  }
  if (type !== 'multipart/form-data') throw unsupportedUploadType(UPLOAD_TYPES, 'the file');
  const { files } = await receiveMultipart(ctx, { maxFiles: 1, textFields: [], tooManyFiles: () => invalidField(FILE_FIELD, 'appears more than once: upload one file at a time') });
  const file = files[0];
  if (file === undefined) throw invalidField(FILE_FIELD, 'is required');
  return file;
}

/**
 * POST /chats/{id}/attachments: any member uploads a file, unused until one of their messages takes it (within
 * the hour: unused uploads are removed after it). 201 with the attachment and its href as Location.
 */
export async function createAttachment(ctx: RequestContext): Promise<Reply> {
  const { storage, clock } = ctx.services;
  const chatId = (await findVisibleChat(ctx, ctx.params['chatId']!)).id;
  const file = await receiveOne(ctx);
  try {
    const [row] = await storage.transaction(async (tx) => {
      await findVisibleChat(ctx, chatId, tx);
      return saveReceived(tx, ctx, chatId, [file], clock.now());
    });
    return attachmentReplyFor(ctx, row!, 201, { Location: ctx.href(PATHS.attachment, { chatId, attachmentId: row!.id }) });
  } catch (error) {
    await dropReceived(ctx, [file.contentId]);
    throw error;
  }
}

/**
 * GET and HEAD /chats/{id}/attachments/{aid}: the bytes, for members of the chat; anyone else, and an id of
 * another chat, gets the 404 of a missing chat or attachment (docs/protocol.md §15.6).
 */
export async function getAttachmentContent(ctx: RequestContext): Promise<Reply> {
  const { storage } = ctx.services;
  const chatId = (await findVisibleChat(ctx, ctx.params['chatId']!)).id;
  const attachmentId = ctx.params['attachmentId']!;
  const row = await storage.attachments.findAttachment(attachmentId);
  // An upload no message holds yet is its uploader's alone.
  if (row?.chatId !== chatId || (row.messageId === null && row.uploaderId !== ctx.caller!.userId)) {
    throw new HttpError('ERR_NOT_FOUND', `No attachment ${attachmentId} in chat ${chatId}`);
  }
  return attachmentReply(storage, row, ctx.req.headers, ctx.method);
}
