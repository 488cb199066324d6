// Shared steps of the attachment tests: multipart bodies as browsers send them, posts and uploads with files.
import { createHash } from 'node:crypto';
import { call, type LoggedIn, type TestResponse } from './client.ts';
import type { FormPart } from './avatar-fixtures.ts';
import type { RunningServer } from '../../src/index.ts';

export const BOUNDARY = '----AttachmentBoundary0123456789';
export const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** RFC 7578 as browsers send it: part headers in UTF-8 (a file name of any script goes as it is), CRLF between lines. */
export function multipart(parts: readonly FormPart[], boundary = BOUNDARY): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.type === undefined ? '' : `Content-Type: ${part.type}\r\n`;
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n${type}\r\n`, 'utf8'), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

export function filePart(name: string, data: Buffer, type = 'application/octet-stream'): FormPart {
  return { name: 'file', filename: name, type, data };
}

export async function postWithFiles(server: RunningServer, user: LoggedIn, chatId: string, parts: FormPart[]): Promise<TestResponse> {
  return call(server, 'POST', `/chats/${chatId}/messages`, { token: user.token, headers: { 'content-type': MULTIPART }, body: multipart(parts, BOUNDARY) });
}

export async function upload(server: RunningServer, user: LoggedIn, chatId: string, name: string, data: Buffer): Promise<TestResponse> {
  return call(server, 'POST', `/chats/${chatId}/attachments`, { token: user.token, headers: { 'content-type': MULTIPART }, body: multipart([filePart(name, data)], BOUNDARY) });
}

