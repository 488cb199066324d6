// A message's mentions as a write stores them (docs/protocol.md §14.2): found in its text among the chat's members,
// `@all` allowed to the chat's owner and admins only.
import type { RequestContext } from '../context.ts';
import { invalidField } from '../../http/http-error.ts';
import type { Body } from '../../parsers/body-fields.ts';
import { NO_MENTIONS, type ChatAccess, type MemberRow } from '../../storage/store.ts';
import { isAdmin } from '../users/roles.ts';
import { findMentions } from '../../parsers/mentions.ts';

/**
 * Whether the caller is an admin, asked only when the body's text says `@all` (else false, and nothing is read).
 * Asked before the write's transaction: a read of the store from inside one would wait for it.
 */
export async function isAdminIfMentioningAll(ctx: RequestContext, body: Body): Promise<boolean> {
  const data = body['data'];
  const text = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)['text'] : undefined;
  return isAdminIfTextMentionsAll(ctx, text);
}

/** The same, for a text already read (a new message's, JSON or multipart: docs/protocol.md §15.2). */
export async function isAdminIfTextMentionsAll(ctx: RequestContext, text: unknown): Promise<boolean> {
  return typeof text === 'string' && findMentions(text, []).all && await isAdmin(ctx);
}

/** The mentions of `text` among `members` as storage keeps them (JSON text); 403 naming data.text for a forbidden `@all`. */
export function storedMentions(ctx: RequestContext, access: ChatAccess, text: string, members: readonly MemberRow[], admin: boolean): string {
  const found = findMentions(text, members);
  if (found.all && !admin && access.ownerId !== ctx.caller!.userId) {
    throw invalidField('data.text', 'mentions @all, which only the chat\'s owner and admins may', 'ERR_FORBIDDEN');
  }
  return found.userIds.length === 0 ? NO_MENTIONS : JSON.stringify(found.userIds);
}
