// The caller's notification level in a chat (docs/protocol.md §14.3): read it, or set all, mentions or none.
import type { Reply, RequestContext } from '../context.ts';
import { checkPreconditions, etagOf } from '../../http/conditional.ts';
import { invalidField } from '../../http/http-error.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { rejectUnknownFields, unwrapEnvelope, type Body } from '../../parsers/body-fields.ts';
import type { ChatAccess, NotificationLevel, Repositories } from '../../storage/store.ts';
import { chatNotFound, findVisibleChat } from '../chats/access.ts';
import { singleReply } from '../single-reply.ts';
import { PATHS } from '../../paths.ts';
import { effectiveLevel } from './decide.ts';

export const NOTIFICATION_LEVELS: readonly NotificationLevel[] = ['all', 'mentions', 'none'];

function settingReply(ctx: RequestContext, chatId: string, level: NotificationLevel): Reply {
  return singleReply('notificationSetting', { chatId, level }, [{ rel: 'chat', href: ctx.href(PATHS.chat, { chatId }) }]);
}

/** The caller's level as it applies now (their choice, or the default of the chat's kind); the chat's 404 if they just left. */
async function findLevel(ctx: RequestContext, db: Repositories, access: ChatAccess): Promise<NotificationLevel> {
  const member = await db.chats.findMember(access.id, ctx.caller!.userId);
  if (!member) throw chatNotFound(access.id);
  return effectiveLevel(access.kind, member.notificationLevel);
}

export async function getNotificationSetting(ctx: RequestContext): Promise<Reply> {
  const access = await findVisibleChat(ctx, ctx.params['chatId']!);
  return settingReply(ctx, access.id, await findLevel(ctx, ctx.services.storage, access));
}

/** {"data": {"level": "all" | "mentions" | "none", "chatId"?}}. */
function validateSetting(body: Body, chatId: string): NotificationLevel {
  const data = unwrapEnvelope(body);
  rejectUnknownFields(data, ['chatId', 'level'], 'data.');
  if (data['chatId'] !== undefined && data['chatId'] !== chatId) throw invalidField('data.chatId', 'must equal the chat id in the path');
  const level = data['level'];
  if (!NOTIFICATION_LEVELS.includes(level as NotificationLevel)) throw invalidField('data.level', 'must be "all", "mentions" or "none"');
  return level as NotificationLevel;
}

/** PUT /chats/{id}/notifications: the member's own choice, kept even when it equals the default. */
export async function putNotificationSetting(ctx: RequestContext): Promise<Reply> {
  const body = await readJsonBody(ctx, ctx.services.config.maxBodyBytes);
  const access = await findVisibleChat(ctx, ctx.params['chatId']!);
  const level = validateSetting(body, access.id);
  await ctx.services.storage.transaction(async (tx) => {
    const current = await findLevel(ctx, tx, access);
    checkPreconditions(ctx.req.headers, etagOf({ chatId: access.id, level: current }));
    await tx.chats.setNotificationLevel(access.id, ctx.caller!.userId, level);
  });
  return settingReply(ctx, access.id, level);
}
