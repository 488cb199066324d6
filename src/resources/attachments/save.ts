// Received files become attachments of a chat (docs/protocol.md §15.2), inside the transaction that answers for them.
import type { RequestContext } from '../context.ts';
import { invalidField } from '../../http/http-error.ts';
import { attachmentSummary, type AttachmentSummary } from '../../representations/public-fields.ts';
import { newId } from '../../storage/ids.ts';
import type { AttachmentRow, Repositories } from '../../storage/store.ts';
import type { ReceivedFile } from './content-writer.ts';
import { FILE_FIELD } from './receive.ts';
import { quotaExceeded } from './limits.ts';

/** Served as what it is only when validated as an image (docs/protocol.md §15.3); everything else is bytes to save. */
export const OPAQUE_TYPE = 'application/octet-stream';

/**
 * Finishes each content under its sha256 (identical bytes are kept once) and inserts an unused attachment for it.
 * The quota is checked again here, in the transaction: two uploads of one user at once cannot both slip under it.
 */
export async function saveReceived(tx: Repositories, ctx: RequestContext, chatId: string, files: readonly ReceivedFile[], now: number): Promise<AttachmentRow[]> {
  const uploaderId = ctx.caller!.userId;
  const { attachmentQuota } = ctx.services.config;
  const used = await tx.attachments.bytesUsedBy(uploaderId);
  const adding = files.reduce((sum, file) => sum + file.size, 0);
  if (files.length > 0 && used + adding > attachmentQuota) throw quotaExceeded(FILE_FIELD, attachmentQuota, used);
  const rows: AttachmentRow[] = [];
  for (const file of files) {
    const contentId = await tx.attachments.finishContent(file.contentId, file.sha256, file.size);
    const row = {
      id: newId(now), chatId, uploaderId, contentId, name: file.name, contentType: file.image?.contentType ?? OPAQUE_TYPE,
      size: file.size, sha256: file.sha256, width: file.image?.width ?? null, height: file.image?.height ?? null, createdAt: now,
    };
    await tx.attachments.insertAttachment(row);
    rows.push({ ...row, messageId: null, chunkBytes: 0 });
  }
  return rows;
}

/**
 * docs/protocol.md §15.2: the ids a message names must be the caller's own unused uploads to this chat; anything
 * else (unknown, another's, another chat's, already on a message) is the same 400, naming the place in the list.
 */
export async function findUnusedUploads(tx: Repositories, ctx: RequestContext, chatId: string, ids: readonly string[]): Promise<AttachmentSummary[]> {
  const rows = await tx.attachments.findAttachments(ids);
  return ids.map((id, index) => {
    const row = rows.find((candidate) => candidate.id === id);
    if (row?.chatId !== chatId || row.uploaderId !== ctx.caller!.userId || row.messageId !== null) {
      throw invalidField(`data.attachments[${index}]`, 'must be the id of an unused upload of yours to this chat');
    }
    return attachmentSummary(row);
  });
}
