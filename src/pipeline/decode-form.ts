// Stage 3, form decoding (docs/html.md, forms): a same-origin HTML form post becomes the request it stands for.
// Its fields are read here and `_method` names the method; routing (pipeline/find-route.ts) then finds the route's
// form rule, which turns the fields into the JSON body the handler reads (http/json-body.ts), or refuses the form.
import { isFormPost, readFormPost } from '../http/form-post.ts';
import type { Exchange } from './exchange.ts';

/** Reads a form post's fields and takes its method from `_method`; any other request is left as it is. */
export async function decodeForm(ex: Exchange): Promise<void> {
  const { services } = ex;
  if (!isFormPost(ex.req, services.publicOrigin())) return;
  ex.form = await readFormPost(ex.req, services.config.maxBodyBytes, services.config.basePath);
  ex.method = ex.form.method;
}
