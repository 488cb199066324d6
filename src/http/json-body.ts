// The JSON object a request's handler reads: the one an HTML form's fields stand for, or the body it sent.
import type { IncomingMessage } from 'node:http';
import type { FormSubmission } from './form-post.ts';
import { JSON_TYPES, readJsonObject, type TooLarge } from './read-body.ts';

export interface BodySource {
  req: IncomingMessage;
  /** Set for an HTML form post (docs/html.md, forms): its body was read already, as fields. */
  form?: FormSubmission | undefined;
}

/**
 * A form's fields were turned into the JSON body its route takes (http/form-post.ts formBody), so the handler
 * validates them exactly as it would that JSON: one copy of every rule. Anything else reads the request's body.
 */
export function readJsonBody(source: BodySource, limit: number, accepted: readonly string[] = JSON_TYPES, onTooLarge?: TooLarge): Promise<Record<string, unknown>> {
  const formBody = source.form?.body;
  return formBody !== undefined ? Promise.resolve(formBody) : readJsonObject(source.req, limit, accepted, onTooLarge);
}
