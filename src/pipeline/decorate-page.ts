// Part of stage 8: an HTML answer gets its page context (logins, avatars, the chat around it) before it is rendered.
import type { Reply, RequestContext } from '../resources/context.ts';
import { decoratePage } from '../resources/page-context.ts';

/** JSON and XML answers, and problems, are left alone. */
export async function withPage(ctx: RequestContext, reply: Reply): Promise<Reply> {
  if (ctx.mediaType !== 'text/html' || !reply.representation || reply.representation.kind === 'problem') return reply;
  // A copy, never shared: a cached page (shared: true) answers every reader, and this context is one reader's.
  const rep = { ...reply.representation, shared: false };
  await decoratePage(ctx, rep);
  return { ...reply, representation: rep };
}
