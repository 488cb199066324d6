// A message posted by a webhook's bot (docs/protocol.md §16.3, §16.4): an incoming webhook's POST, or an outgoing
// webhook's answer. Written like any message (its event in the same commit), only while the bot is a member.
import type { AppServices } from '../context.ts';
import { HttpError } from '../../http/http-error.ts';
import { publicMessage } from '../../representations/public-fields.ts';
import { newId } from '../../storage/ids.ts';
import { NO_MENTIONS, NO_REACTIONS, type MessageRow } from '../../storage/store.ts';
import { checkString } from '../../parsers/body-fields.ts';
import { MESSAGE_TEXT_RULE } from '../messages/validate.ts';

export function checkHookText(value: unknown): string {
  return checkString(value, 'text', MESSAGE_TEXT_RULE);
}

export async function postAsBot(services: Pick<AppServices, 'storage' | 'clock'>, chatId: string, botId: string, text: string): Promise<MessageRow> {
  const { storage, clock } = services;
  return storage.writeTogether(async (tx) => {
    if (!(await tx.chats.findChatForMember(chatId, botId))) throw new HttpError('ERR_NOT_FOUND', 'The webhook\'s bot is no longer a member of its chat');
    const now = clock.now();
    const message: MessageRow = { id: newId(now), chatId, authorId: botId, text, replyTo: null, createdAt: now, updatedAt: now, editedAt: null, reactions: NO_REACTIONS, mentions: NO_MENTIONS };
    await tx.messages.insertMessage(message);
    await tx.events.append({ type: 'message.created', chatId, createdAt: now, data: publicMessage(message), subjectId: message.id });
    return message;
  });
}
