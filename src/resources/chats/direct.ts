// Direct chats (docs/protocol.md §14.1): one per pair of people (or one person with themself), opened with POST /chats
// {"data": {"kind": "direct", "members": [otherUserId]}}; answered 201 when new, 200 with the one that exists.
import type { Reply, RequestContext } from '../context.ts';
import { invalidField } from '../../http/http-error.ts';
import { readJsonBody } from '../../http/json-body.ts';
import type { Body } from '../../parsers/body-fields.ts';
import { publicChat } from '../../representations/public-fields.ts';
import { newId } from '../../storage/ids.ts';
import { isUniqueViolation, type ChatRow, type Repositories } from '../../storage/store.ts';
import { PATHS } from '../../paths.ts';
import { appendChatChangeEvents, chatReply, postGroupChat } from './handlers.ts';
import { isDirectChatBody, validateDirectChat } from './validate.ts';

/** The key of a pair, the same whoever opens it: "<smaller id>:<larger id>" (one id twice for oneself). */
export function directKeyOf(oneId: string, otherId: string): string {
  return oneId < otherId ? `${oneId}:${otherId}` : `${otherId}:${oneId}`;
}


/**
 * The pair's chat as the caller gets it back: as it is when they are in it, else with them added again (a member
 * who left and opens it once more returns to its history; the other person is left as they are).
 */
async function answerExisting(ctx: RequestContext, tx: Repositories, chat: ChatRow): Promise<Reply> {
  const callerId = ctx.caller!.userId;
  if (chat.members.includes(callerId)) return chatReply(ctx, tx, chat);
  const now = ctx.services.clock.now();
  const before = await tx.chats.findMembers(chat.id);
  await tx.chats.addMember(chat.id, callerId, now);
  await tx.chats.touchChat(chat.id, now);
  await appendChatChangeEvents(tx, chat.id, before, now);
  return chatReply(ctx, tx, (await tx.chats.findChat(chat.id))!);
}

/**
 * Finds or creates the pair's chat. Most opens find a chat the caller is in already: two reads answer those, no
 * transaction (which would hold the connection and the write lock, and sync the WAL, to change nothing: a tenth of a
 * team's actions are opens of a direct chat). Else one write finds or creates it, in the commit it shares with the
 * other writes of the moment (group commit: one WAL sync for all, as a post). On SQLite the writes of a commit run one
 * at a time, so the find decides; on PostgreSQL two servers may both find nothing, and the second insert waits for the
 * first to commit and then breaks the unique key: it is undone alone (a savepoint) and the chat the first made is answered.
 */
export async function openDirectChat(ctx: RequestContext, body: Body): Promise<Reply> {
  const otherId = validateDirectChat(body);
  const callerId = ctx.caller!.userId;
  const key = directKeyOf(callerId, otherId);
  const { storage } = ctx.services;
  const found = await storage.chats.findDirectChat(key);
  if (found?.members.includes(callerId) && (await storage.chats.findUnknownUsers([otherId])).length === 0) {
    return chatReply(ctx, storage, found);
  }
  return storage.writeTogether(async (tx) => {
    if ((await tx.chats.findUnknownUsers([otherId])).length > 0) throw invalidField('data.members', `holds ids that name no user: ${otherId}`);
    const existing = await tx.chats.findDirectChat(key);
    if (existing) return answerExisting(ctx, tx, existing);
    const now = ctx.services.clock.now();
    const id = newId(now);
    try {
      await tx.chats.insertChat({ id, kind: 'direct', title: null, ownerId: callerId, directKey: key, createdAt: now, updatedAt: now });
    } catch (error) {
      const first = isUniqueViolation(error) ? await tx.chats.findDirectChat(key) : undefined;
      if (!first) throw error;
      return answerExisting(ctx, tx, first);
    }
    for (const userId of new Set([callerId, otherId])) await tx.chats.addMember(id, userId, now);
    const created = (await tx.chats.findChat(id))!;
    await tx.events.append({ type: 'chat.created', chatId: id, createdAt: now, data: publicChat(created) });
    return chatReply(ctx, tx, created, 201, { Location: ctx.href(PATHS.chat, { chatId: id }) });
  });
}

/** POST /chats: a direct chat when the body says kind "direct", else a group chat. */
export async function postChat(ctx: RequestContext): Promise<Reply> {
  const body = await readJsonBody(ctx, ctx.services.config.maxBodyBytes);
  return isDirectChatBody(body) ? openDirectChat(ctx, body) : postGroupChat(ctx, body);
}
