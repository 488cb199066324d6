// What the chat screen shows beside the page's own resource (docs/html.md, "The chat screen"): the sidebar of the
// reader's chats by last activity, and the message a reply being written answers.
import type { RequestContext } from './context.ts';
import { isoTime } from '../representations/iso-time.ts';
import { publicChatForCaller } from '../representations/public-fields.ts';
import type { Representation, Resource } from '../representations/representation.ts';
import { isValidId } from '../storage/ids.ts';

/** The sidebar lists the reader's most recently active chats, at most this many. */
export const SIDEBAR_LIMIT = 100;

/** The pages that show the sidebar: a chat's messages and the list of chats. */
function showsSidebar(ctx: RequestContext, rep: Representation): boolean {
  if (!ctx.caller || rep.kind !== 'collection') return false;
  return (rep.type === 'message' && ctx.params['chatId'] !== undefined) || (rep.type === 'chat' && ctx.params['chatId'] === undefined);
}

/**
 * The reader's chats, most recently active first, each as GET /chats has it plus `lastActivityAt` (the newest
 * message's time, else the chat's creation); undefined on a page without a sidebar.
 */
export async function readSidebar(ctx: RequestContext, rep: Representation): Promise<Resource[] | undefined> {
  if (!showsSidebar(ctx, rep)) return undefined;
  const rows = await ctx.services.storage.collections.listChatsByActivity(ctx.caller!.userId, SIDEBAR_LIMIT);
  return rows.map((row) => ({ ...publicChatForCaller(row, row), lastActivityAt: isoTime(row.lastActivityAt) }));
}

/** The other person of each direct chat of the sidebar: the page names them, with their presence. */
export function sidebarPeople(sidebar: readonly Resource[] | undefined, me: string | undefined, into: Set<string>): void {
  for (const chat of sidebar ?? []) {
    if (chat['kind'] !== 'direct' || !Array.isArray(chat['members'])) continue;
    for (const id of chat['members']) if (typeof id === 'string' && id !== me) into.add(id);
  }
}

/** The id in a screen parameter (`reply`, `edit`) of the page's query, when it is a well-formed id. */
export function screenParameter(ctx: RequestContext, name: 'reply' | 'edit'): string | undefined {
  if (!ctx.rawQuery) return undefined;
  const value = new URLSearchParams(ctx.rawQuery).get(name) ?? undefined;
  return value !== undefined && isValidId(value) ? value : undefined;
}
