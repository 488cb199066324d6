// Receiving files (docs/protocol.md §15.2): multipart file parts streamed into the database, or one base64 file in JSON.
import type { RequestContext } from '../context.ts';
import { httpErrorOf, invalidField, type HttpError } from '../../http/http-error.ts';
import { limitBody } from '../../http/read-body.ts';
import { checkString, rejectUnknownFields, unwrapEnvelope, type Body } from '../../parsers/body-fields.ts';
import { decodeImageData } from '../../parsers/image-data.ts';
import { streamMultipart, type FileSink } from '../../parsers/multipart-stream.ts';
import type { PartInfo } from '../../parsers/multipart.ts';
import { ContentWriter, CHUNK_BYTES, type ReceivedFile, type WriterLimits } from './content-writer.ts';
import { attachmentTooLarge, bodyTooLarge, MAX_JSON_ATTACHMENT_BYTES, multipartBodyLimit, multipartLimits } from './limits.ts';

/** The file parts' name in a multipart body. */
export const FILE_FIELD = 'file';

export interface ReceivedUpload {
  fields: Map<string, string>;
  files: ReceivedFile[];
}

export interface MultipartRules {
  maxFiles: number;
  /** Text parts the route reads; parts named `_…` (a page's own, such as `_back`) pass unread. */
  textFields: readonly string[];
  /** More file parts than maxFiles. */
  tooManyFiles(): HttpError;
  /** Told each text part once read (an HTML form shown again keeps what was typed). */
  onField?(name: string, value: string): void;
}

/** An empty file input of an HTML form sends a part with filename="" and nothing in it: no file was chosen. */
const NO_FILE: FileSink = { write: async () => {}, end: async () => {} };

/** RFC 7578 §4.2: the filename is a name, never a path (old browsers sent the whole path); no control characters. */
export function cleanFileName(raw: string): string {
  const base = raw.slice(Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\')) + 1);
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f]/gu, '').trim();
  return [...clean].slice(0, 255).join('') || 'file';
}

async function writerLimits(ctx: RequestContext, field: string, maxBytes: number, earlier: number): Promise<WriterLimits> {
  const { config, storage } = ctx.services;
  const used = await storage.attachments.bytesUsedBy(ctx.caller!.userId) + earlier;
  return { field, maxBytes, quota: config.attachmentQuota, used, maxImageBytes: config.maxAvatarBytes, maxImagePixels: config.maxAvatarPixels };
}

/** The contents of files received before a failure: gone, so nothing waits for the hourly cleanup. */
export async function dropReceived(ctx: RequestContext, contentIds: readonly string[]): Promise<void> {
  for (const contentId of contentIds) await ctx.services.storage.attachments.dropContent(contentId).catch(() => {});
}

/**
 * Streams a multipart body: each file part (named `file`) into its own content, chunk by chunk, as it arrives; the
 * text fields into a map. A limit passed is a 413 at once, naming which (docs/protocol.md §15.5).
 */
export async function receiveMultipart(ctx: RequestContext, rules: MultipartRules): Promise<ReceivedUpload> {
  const { config, clock, storage } = ctx.services;
  const writers: ContentWriter[] = [];
  let files = 0;
  let inFile = false;
  const checkPart = (part: PartInfo, repeated: boolean): void => {
    inFile = part.filename !== undefined;
    if (part.name.startsWith('_') && !inFile) return;
    if (inFile && part.name !== FILE_FIELD) throw invalidField(part.name, `must be a text part: files go in parts named "${FILE_FIELD}"`);
    if (!inFile && !rules.textFields.includes(part.name)) throw invalidField(part.name, part.name === FILE_FIELD ? 'must be a file part (with a filename)' : 'is not a known field');
    if (!inFile && repeated) throw invalidField(part.name, 'appears more than once');
    if (inFile && part.filename !== '' && ++files > rules.maxFiles) throw rules.tooManyFiles();
  };
  const openFile = async (part: PartInfo): Promise<FileSink> => {
    if (part.filename === '') return NO_FILE;
    const earlier = writers.reduce((sum, writer) => sum + writer.received().size, 0);
    const writer = await ContentWriter.open(storage, cleanFileName(part.filename!), await writerLimits(ctx, FILE_FIELD, config.maxAttachmentBytes, earlier), clock.now());
    writers.push(writer);
    return writer;
  };
  const body = limitBody(ctx.req, multipartBodyLimit(config, rules.maxFiles), bodyTooLarge(config, rules.maxFiles));
  try {
    const fields = await streamMultipart(body, ctx.req.headers['content-type'] ?? '', multipartLimits(config, rules.maxFiles), { checkPart, openFile, ...(rules.onField ? { onField: rules.onField } : {}) });
    for (const name of [...fields.keys()]) if (name.startsWith('_')) fields.delete(name);
    return { fields, files: writers.map((writer) => writer.received()) };
  } catch (error) {
    await dropReceived(ctx, writers.map((writer) => writer.contentId));
    // The file part passing maxFileBytes is the file passing its limit: say so in those words.
    throw inFile && httpErrorOf(error)?.code === 'ERR_BODY_TOO_LARGE' ? attachmentTooLarge(FILE_FIELD, config.maxAttachmentBytes) : error;
  }
}

const JSON_FIELDS = ['name', 'contentType', 'content'];
const NAME_RULE = { min: 1, max: 255, pattern: /^[^\u0000-\u001f\u007f-\u009f/\\]*$/u, patternMessage: 'may not hold control characters, / or \\' };
const TYPE_RULE = { min: 1, max: 255, pattern: /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;.*)?$/, patternMessage: 'must be a media type such as text/plain' };

/**
 * The JSON form, {"data": {"name", "contentType"?, "content"}}: content in base64 (or a data: URL), at most
 * MAX_JSON_ATTACHMENT_BYTES, since it is decoded in memory. The declared contentType is checked and then not
 * used: what is served is decided by the bytes (docs/protocol.md §15.3).
 */
export async function receiveJson(ctx: RequestContext, body: Body): Promise<ReceivedFile> {
  const { config, clock, storage } = ctx.services;
  const data = unwrapEnvelope(body);
  rejectUnknownFields(data, JSON_FIELDS, 'data.');
  const name = checkString(data['name'], 'data.name', NAME_RULE);
  if (data['contentType'] !== undefined) checkString(data['contentType'], 'data.contentType', TYPE_RULE);
  if (typeof data['content'] !== 'string') throw invalidField('data.content', data['content'] === undefined ? 'is required' : 'must be a base64 string');
  const bytes = decodeImageData(data['content'], 'data.content');
  const maxBytes = Math.min(config.maxAttachmentBytes, MAX_JSON_ATTACHMENT_BYTES);
  if (bytes.length > maxBytes) throw attachmentTooLarge('data.content', maxBytes, maxBytes === config.maxAttachmentBytes ? '--max-attachment-bytes' : 'the JSON form\'s limit: send larger files as multipart/form-data');
  const writer = await ContentWriter.open(storage, cleanFileName(name), await writerLimits(ctx, 'data.content', maxBytes, 0), clock.now());
  try {
    for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) await writer.write(bytes.subarray(offset, offset + CHUNK_BYTES));
    await writer.end();
  } catch (error) {
    await dropReceived(ctx, [writer.contentId]);
    throw error;
  }
  return writer.received();
}

