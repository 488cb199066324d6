// The body of a new message (docs/protocol.md §4.4, §15.2): JSON (or an HTML form's fields), or multipart with files.
import type { RequestContext } from '../context.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { mediaTypeOf } from '../../http/read-body.ts';
import { normaliseLineBreaks } from '../../http/form-post.ts';
import type { ReceivedFile } from '../attachments/content-writer.ts';
import { dropReceived, receiveMultipart } from '../attachments/receive.ts';
import { findVisibleChat } from '../chats/access.ts';
import { tooManyAttachments, validateNewMessage, type NewMessageInput } from './validate.ts';

export interface NewMessage {
  chatId: string;
  input: NewMessageInput;
  /** Files of a multipart body, stored already (not yet finished): the caller drops them should the post fail. */
  files: ReceivedFile[];
}

// The text parts of a multipart message; `file` parts are its files.
const TEXT_PARTS = ['text', 'replyTo'];

/**
 * JSON: read, then the membership checked, as always. Multipart: the membership first, since the files are stored
 * as they arrive and a stranger's bytes must never reach the database; its text parts then pass the same rules
 * as JSON's fields (an empty part counts as absent, as an HTML form's empty field does).
 */
export async function readNewMessage(ctx: RequestContext): Promise<NewMessage> {
  const { config } = ctx.services;
  if (mediaTypeOf(ctx.req.headers['content-type']) !== 'multipart/form-data' || ctx.form?.body !== undefined) {
    const body = await readJsonBody(ctx, config.maxBodyBytes);
    const chatId = (await findVisibleChat(ctx, ctx.params['chatId']!)).id;
    return { chatId, input: validateNewMessage(body, chatId, 0, config.maxAttachments), files: [] };
  }
  const chatId = (await findVisibleChat(ctx, ctx.params['chatId']!)).id;
  const { fields, files } = await receiveMultipart(ctx, {
    maxFiles: config.maxAttachments, textFields: TEXT_PARTS, tooManyFiles: () => tooManyAttachments(config.maxAttachments),
    // An HTML form shown again after a broken rule keeps what was typed (pipeline/answer-form.ts reads these).
    onField: (name, value) => ctx.form?.fields.set(name, [value]),
  });
  try {
    // A browser's form sends line breaks as CR LF (form-post.ts); an API client's multipart text is taken as sent.
    const data = Object.fromEntries([...fields].filter(([, value]) => value !== '').map(([name, value]) => [name, ctx.form === undefined ? value : normaliseLineBreaks(value)]));
    return { chatId, input: validateNewMessage({ data }, chatId, files.length, config.maxAttachments), files };
  } catch (error) {
    await dropReceived(ctx, files.map((file) => file.contentId));
    throw error;
  }
}
