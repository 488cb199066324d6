// Stage 3, form decoding (docs/html.md, forms): a same-origin HTML form post becomes the request it stands for.
// Before routing, its fields are read and `_method` names the method; once routing (stage 4) found the route, its
// form rule turns the fields into the JSON body the handler reads (http/json-body.ts), or refuses the form (415).
import { formBody, formNotAccepted, isFormPost, readFormPost } from '../http/form-post.ts';
import { formRuleOf } from '../resources/form-rules.ts';
import type { Exchange } from './exchange.ts';

/** Reads a form post's fields and takes its method from `_method`; any other request is left as it is. */
export async function decodeForm(ex: Exchange): Promise<void> {
  const { services } = ex;
  if (!isFormPost(ex.req, services.publicOrigin())) return;
  ex.form = await readFormPost(ex.req, services.config.maxBodyBytes, services.config.basePath);
  ex.method = ex.form.method;
}

/** The route's form rule, or 415 when the route takes no form (or no file, for a multipart one). */
export function applyFormRule(ex: Exchange, pattern: string, fullPath: string): void {
  const { form } = ex;
  if (form === undefined) return;
  const rule = formRuleOf(ex.method, pattern);
  if (rule === undefined || (form.kind === 'multipart' && !rule.shape.files)) throw formNotAccepted(ex.method, fullPath);
  ex.formRule = rule;
  if (form.kind === 'urlencoded') form.body = formBody(form, rule.shape);
}
