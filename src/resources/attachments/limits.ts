// The limits of files in messages (docs/protocol.md §15.5): per file, per message, per user, and the multipart limits they make.
import { HttpError, invalidField } from '../../http/http-error.ts';
import type { MultipartLimits } from '../../parsers/multipart.ts';
import type { Config } from '../../config.ts';

const KIB = 1024;

/** docs/protocol.md §15.5: a JSON upload (base64, decoded in memory) holds at most this; larger files go as multipart, which streams. */
export const MAX_JSON_ATTACHMENT_BYTES = 4 * KIB * KIB;

function inMib(bytes: number): string {
  return bytes % (KIB * KIB) === 0 ? `${bytes / (KIB * KIB)} MiB, ` : '';
}

/** One file over --max-attachment-bytes, whichever count noticed it (the body, the part, the decoded bytes). */
export function attachmentTooLarge(field: string, maxBytes: number, flag = '--max-attachment-bytes'): HttpError {
  return invalidField(field, `the file is over the size limit of ${maxBytes} bytes (${inMib(maxBytes)}${flag})`, 'ERR_ATTACHMENT_TOO_LARGE');
}

/** The uploader's files would pass --attachment-quota. */
export function quotaExceeded(field: string, quota: number, used: number): HttpError {
  return invalidField(field, `the file would bring your uploads over your quota of ${quota} bytes (${inMib(quota)}--attachment-quota); ${used} are in use`, 'ERR_ATTACHMENT_QUOTA');
}

/**
 * A multipart body of up to `files` files of --max-attachment-bytes: text fields of a message's 4000 characters
 * (16 KiB of UTF-8), headers with a long filename (RFC 8187 filename* doubles it), a few more parts than files for
 * the text fields.
 */
export function multipartLimits(config: Pick<Config, 'maxAttachmentBytes'>, files: number): MultipartLimits {
  return { maxFileBytes: config.maxAttachmentBytes, maxFieldBytes: 16 * KIB, maxParts: files + 8, maxHeaderBytes: 4 * KIB };
}

/** The whole multipart body: the files and 64 KiB for delimiters, headers and text fields. */
export function multipartBodyLimit(config: Pick<Config, 'maxAttachmentBytes'>, files: number): number {
  return files * config.maxAttachmentBytes + 64 * KIB;
}

/** A body declared or streamed past the whole limit: what it held at most. */
export function bodyTooLarge(config: Pick<Config, 'maxAttachmentBytes'>, files: number): () => HttpError {
  return () => new HttpError('ERR_BODY_TOO_LARGE', `This body holds at most ${files} file(s) of ${config.maxAttachmentBytes} bytes (--max-attachment-bytes)`);
}
