// Bench only: the chat server with GET /chats answered as it was before read markers (no join of the caller's
// membership row, no lastReadId or unreadCount): the yardstick of bench/unread-reactions.bench.ts, same code otherwise.
import { startServer, type StartOptions } from '../src/index.ts';
import { publicChat } from '../src/representations/public-fields.ts';
import { ALL_ROUTES } from '../src/resources/all-routes.ts';
import { CHAT_FIELDS } from '../src/resources/chats/handlers.ts';
import { collectionReply } from '../src/resources/collection.ts';
import { CHAT_SELECT, chatFromRecord, type ChatRecord } from '../src/storage/sqlite/chat-store.ts';
import { CHAT_COLUMNS } from '../src/storage/sqlite/collections.ts';
import { PageRunner } from '../src/storage/sqlite/list-page.ts';
import type { SqliteStore } from '../src/storage/sqlite/sqlite-store.ts';
import { PATHS } from '../src/paths.ts';

const FIELDS_WITHOUT_COUNTS = { ...CHAT_FIELDS, fields: CHAT_FIELDS.fields.filter((field) => field.name !== 'lastReadId' && field.name !== 'unreadCount') };

export async function start(options: StartOptions): Promise<{ url: string; close(): Promise<void> }> {
  const route = ALL_ROUTES.find((candidate) => candidate.method === 'GET' && candidate.pattern === '/chats')!;
  let pages: PageRunner | undefined;
  route.handler = (ctx) => collectionReply<ChatRecord>(ctx, {
    type: 'chat',
    spec: FIELDS_WITHOUT_COUNTS,
    // The bench's own SQL, on the SQLite store's connection (the yardstick runs on SQLite only).
    list: async (query) => (pages ??= new PageRunner((ctx.services.storage as SqliteStore).db)).listPage<ChatRecord>(
      { select: CHAT_SELECT, scope: 'c.id IN (SELECT chat_id FROM chat_members WHERE user_id = ?)', scopeParams: [ctx.caller!.userId], columns: CHAT_COLUMNS }, query),
    toPublic: (record) => publicChat(chatFromRecord(record)),
    itemHref: (chat) => ctx.href(PATHS.chat, { chatId: String(chat['id']) }),
  });
  return startServer({ host: '127.0.0.1', port: 0, quiet: true, ...options });
}
