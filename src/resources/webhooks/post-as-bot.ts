// A message posted by a webhook's bot (docs/protocol.md §16.3, §16.4): an incoming webhook's POST, or an outgoing
// webhook's answer. Written like any message (its event, its mentions and notifications in the same commit), only
// while the bot is a member.
import type { AppServices } from '../context.ts';
import { HttpError, invalidField } from '../../http/http-error.ts';
import { publicMessage } from '../../representations/public-fields.ts';
import { newId } from '../../storage/ids.ts';
import { NO_ATTACHMENTS, NO_MENTIONS, NO_REACTIONS, type ChatAccess, type MemberRow, type MessageRow } from '../../storage/store.ts';
import { checkString } from '../../parsers/body-fields.ts';
import { findMentions } from '../../parsers/mentions.ts';
import { MESSAGE_TEXT_RULE } from '../messages/validate.ts';
import { appendNotifications } from '../notifications/append-notifications.ts';

export function checkHookText(value: unknown): string {
  return checkString(value, 'text', MESSAGE_TEXT_RULE);
}

/** docs/protocol.md §14.2: a bot mentions members like anyone; `@all` only in a chat it owns (a bot is never an admin). */
function findBotMentions(access: ChatAccess, botId: string, text: string, members: readonly MemberRow[]): string {
  const found = findMentions(text, members);
  if (found.all && access.ownerId !== botId) throw invalidField('text', 'mentions @all, which only the chat\'s owner and admins may', 'ERR_FORBIDDEN');
  return found.userIds.length === 0 ? NO_MENTIONS : JSON.stringify(found.userIds);
}

export async function postAsBot(services: Pick<AppServices, 'storage' | 'clock' | 'config'>, chatId: string, botId: string, text: string): Promise<MessageRow> {
  const { storage, clock, config } = services;
  return storage.writeTogether(async (tx) => {
    const access = await tx.chats.findChatForMember(chatId, botId);
    if (!access) throw new HttpError('ERR_NOT_FOUND', 'The webhook\'s bot is no longer a member of its chat');
    const members = await tx.chats.findMembers(chatId);
    const mentions = findBotMentions(access, botId, text, members);
    const now = clock.now();
    const message: MessageRow = {
      id: newId(now), chatId, authorId: botId, text, replyTo: null, createdAt: now, updatedAt: now, editedAt: null, reactions: NO_REACTIONS,
      mentions, attachments: NO_ATTACHMENTS,
    };
    await tx.messages.insertMessage(message);
    await tx.events.append({ type: 'message.created', chatId, createdAt: now, data: publicMessage(message, config.basePath), subjectId: message.id });
    await appendNotifications(tx, config.basePath, access.kind, message, members);
    return message;
  });
}
