// Stage 3, form decoding (docs/html.md, forms): a same-origin HTML form post becomes the request it stands for.
// Its fields are read here and `_method` names the method; routing (pipeline/find-route.ts) then finds the route's
// form rule, which turns the fields into the JSON body the handler reads (http/json-body.ts), or refuses the form.
import { isFormPost, readFormPost } from '../http/form-post.ts';
import type { Exchange } from './exchange.ts';

/**
 * Reads a form post's fields and takes its method from `_method`; any other request is left as it is, and
 * then nothing is returned to wait for (pipeline/answer-request.ts awaits only work: each await is a turn).
 */
export function decodeForm(ex: Exchange): Promise<void> | undefined {
  return isFormPost(ex.req, ex.services.publicOrigin()) ? readForm(ex) : undefined;
}

async function readForm(ex: Exchange): Promise<void> {
  const { config } = ex.services;
  ex.form = await readFormPost(ex.req, config.maxBodyBytes, config.basePath);
  ex.method = ex.form.method;
}
