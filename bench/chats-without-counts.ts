// Bench only: the chat server with GET /chats answered as it was before read markers (no join of the caller's
// membership row, no lastReadId or unreadCount): the yardstick of bench/unread-reactions.bench.ts, same code otherwise.
import { startServer, type StartOptions } from '../src/index.ts';
import { publicChat } from '../src/representations/public-fields.ts';
import { ALL_ROUTES } from '../src/resources/all-routes.ts';
import { CHAT_FIELDS } from '../src/resources/chats/handlers.ts';
import { CHAT_PATH } from '../src/resources/chats/paths.ts';
import { collectionReply } from '../src/resources/collection.ts';
import { CHAT_SELECT, chatFromRecord, type ChatRecord } from '../src/storage/chat-store.ts';

const FIELDS_WITHOUT_COUNTS = { ...CHAT_FIELDS, fields: CHAT_FIELDS.fields.filter((field) => field.name !== 'lastReadId' && field.name !== 'unreadCount') };

export async function start(options: StartOptions): Promise<{ url: string; close(): Promise<void> }> {
  const route = ALL_ROUTES.find((candidate) => candidate.method === 'GET' && candidate.pattern === '/chats')!;
  route.handler = (ctx) => collectionReply<ChatRecord>(ctx, {
    type: 'chat',
    source: { select: CHAT_SELECT, scope: 'c.id IN (SELECT chat_id FROM chat_members WHERE user_id = ?)', scopeParams: [ctx.caller!.userId], spec: FIELDS_WITHOUT_COUNTS },
    toPublic: (record) => publicChat(chatFromRecord(record)),
    itemHref: (chat) => ctx.href(CHAT_PATH, { chatId: String(chat['id']) }),
  });
  return startServer({ host: '127.0.0.1', port: 0, quiet: true, ...options });
}
