// Part of stage 8: an HTML answer gets its page context (logins, avatars, the chat around it) before it is rendered.
import type { Reply, RequestContext } from '../resources/context.ts';
import { decoratePage } from '../resources/page-context.ts';
import type { Representation } from '../representations/representation.ts';

/** JSON and XML answers, and problems, are left alone, at once. */
export function withPage(ctx: RequestContext, reply: Reply): Promise<Reply> | Reply {
  const representation = reply.representation;
  if (ctx.mediaType !== 'text/html' || !representation || representation.kind === 'problem') return reply;
  return decorated(ctx, reply, representation);
}

async function decorated(ctx: RequestContext, reply: Reply, representation: Representation): Promise<Reply> {
  // A copy, never shared: a cached page (shared: true) answers every reader, and this context is one reader's.
  const rep = { ...representation, shared: false };
  await decoratePage(ctx, rep);
  return { ...reply, representation: rep };
}
