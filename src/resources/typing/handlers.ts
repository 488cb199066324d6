// POST /chats/{id}/typing (docs/protocol.md §14.5): a member says they are typing; the other members' streams hear it.
import type { Reply, RequestContext } from '../context.ts';
import { findVisibleChat } from '../chats/access.ts';

/**
 * 204 whether or not it was forwarded: a start within 2 s of the last accepted one is dropped (events/typing.ts), and
 * a client cannot tell, nor needs to. Nothing is written: no body is read, the write quota is not taken.
 */
export async function postTyping(ctx: RequestContext): Promise<Reply> {
  const chatId = (await findVisibleChat(ctx, ctx.params['chatId']!)).id;
  ctx.services.typing.start(chatId, ctx.caller!.userId);
  return { status: 204, headers: { 'Cache-Control': 'no-store' } };
}
