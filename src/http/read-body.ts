// Reads a request body within a size limit, checked on Content-Length and again on counted bytes.
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.ts';

function tooLarge(limit: number): HttpError {
  return new HttpError('ERR_BODY_TOO_LARGE', `The request body is larger than ${limit} bytes`);
}

/** Refuses early when the declared length is already over the limit (RFC 9110 §15.5.14). */
/** Builds the 413 for a body over `limit`; a route whose limit comes from another setting names that one. */
export type TooLarge = (limit: number) => HttpError;

export function checkDeclaredLength(req: IncomingMessage, limit: number, onTooLarge: TooLarge = tooLarge): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw onTooLarge(limit);
}

/** Yields the body's chunks, throwing 413 as soon as the running count passes the limit. */
export async function* limitBody(req: IncomingMessage, limit: number, onTooLarge: TooLarge = tooLarge): AsyncGenerator<Buffer> {
  checkDeclaredLength(req, limit, onTooLarge);
  let received = 0;
  // destroyOnReturn: false keeps the socket when we stop reading early, so the 413 can still be sent.
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > limit) throw onTooLarge(limit);
    yield chunk;
  }
}

export async function readBody(req: IncomingMessage, limit: number, onTooLarge: TooLarge = tooLarge): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of limitBody(req, limit, onTooLarge)) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** The media type of a Content-Type header, lower-cased and without parameters. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

export const JSON_TYPES = ['application/json'] as const;

/** Reads a JSON object body; 415 for another Content-Type, 400 for bad JSON or a non-object. */
export async function readJsonObject(
  req: IncomingMessage,
  limit: number,
  accepted: readonly string[] = JSON_TYPES,
  onTooLarge: TooLarge = tooLarge,
): Promise<Record<string, unknown>> {
  const type = mediaTypeOf(req.headers['content-type']);
  if (!accepted.includes(type)) {
    // RFC 9110 §15.5.16: say what is accepted: Accept-Patch for PATCH (RFC 5789 §2.2), Accept-Post otherwise.
    throw new HttpError('ERR_UNSUPPORTED_MEDIA_TYPE', `Send the body as ${accepted.join(' or ')}`, {
      headers: { [req.method === 'PATCH' ? 'Accept-Patch' : 'Accept-Post']: accepted.join(', ') },
    });
  }
  const bytes = await readBody(req, limit, onTooLarge);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    throw new HttpError('ERR_BAD_JSON', `The body is not valid UTF-8 JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError('ERR_BAD_JSON', 'The body must be a JSON object');
  }
  return value as Record<string, unknown>;
}
