// The body of the two requests a signed-out browser sends as a form (log in, sign up): JSON from clients, or the
// same fields form-encoded from this server's own pages only (docs/html.md; a foreign page must not post them).
import type { RequestContext } from './context.ts';
import { HttpError } from '../http/http-error.ts';
import { readJsonBody } from '../http/json-body.ts';
import { mediaTypeOf } from '../http/read-body.ts';
import type { Body } from '../parsers/body-fields.ts';

const FORM_TYPE = 'application/x-www-form-urlencoded';
export const OWN_ORIGIN_BODY_TYPES = ['application/json', FORM_TYPE] as const;

/** `form`: the body came through the HTML form mechanism; a form-encoded body from anywhere else is refused (ERR_CSRF, `refusal`). */
export async function readOwnOriginBody(ctx: RequestContext, refusal: string): Promise<{ body: Body; form: boolean }> {
  const { maxBodyBytes } = ctx.services.config;
  // The form's fields, read by the form decoding stage (pipeline/decode-form.ts) once it passed the origin check.
  if (ctx.form) return { body: await readJsonBody(ctx, maxBodyBytes, OWN_ORIGIN_BODY_TYPES), form: true };
  if (mediaTypeOf(ctx.req.headers['content-type']) === FORM_TYPE) throw new HttpError('ERR_CSRF', refusal);
  return { body: await readJsonBody(ctx, maxBodyBytes, OWN_ORIGIN_BODY_TYPES), form: false };
}
