// The yardstick for bench/messages.bench.ts: a bare node:http server doing what GET and POST
// /chats/{id}/messages must do (token lookup, membership, the same SQL, the app's own row -> public fields), and nothing else.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { publicMessage } from '../src/representations/public-fields.ts';
import { hashToken } from '../src/resources/session/tokens.ts';
import { openDatabase } from '../src/storage/sqlite/database.ts';
import { newId } from '../src/storage/ids.ts';
import { CHAT_MESSAGE_COUNT_SQL, MESSAGE_SELECT } from '../src/storage/sqlite/message-store.ts';
import type { MessageRow } from '../src/storage/store.ts';

const PATH = /^\/chats\/([A-Za-z0-9_-]{1,64})\/messages(?:\?(.*))?$/;

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Same pragmas and schema as the app (openDatabase); every write commits alone, as a bare server's would. */
export async function start(options: { db: string }): Promise<{ url: string; close(): Promise<void> }> {
  const db = openDatabase(options.db);
  const session = db.prepare('SELECT user_id AS userId, expires_at AS expiresAt, max_expires_at AS maxExpiresAt FROM sessions WHERE token_hash = ?');
  const member = db.prepare('SELECT c.id, c.owner_id AS ownerId FROM chats c JOIN chat_members cm ON cm.chat_id = c.id AND cm.user_id = ? WHERE c.id = ?');
  // The statements an unfiltered GET /chats/{id}/messages runs (list-page.ts with history.ts's scope), text
  // for text: the total is the chat's trigger-kept count.
  const count = db.prepare(CHAT_MESSAGE_COUNT_SQL);
  const page = db.prepare(`${MESSAGE_SELECT} WHERE (m.chat_id = ?) AND (1) ORDER BY m.id ASC LIMIT ? OFFSET ?`);
  const insert = db.prepare('INSERT INTO messages (id, chat_id, author_id, text, reply_to, created_at, updated_at) VALUES (@id, @chatId, @authorId, @text, @replyTo, @createdAt, @updatedAt)');

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const match = PATH.exec(req.url ?? '');
    const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!match || !token) return send(res, 404, '{}');
    const caller = session.get(hashToken(token)) as { userId: string; expiresAt: number; maxExpiresAt: number } | undefined;
    const now = Date.now();
    if (!caller || caller.expiresAt <= now || caller.maxExpiresAt <= now) return send(res, 401, '{}');
    const chatId = match[1]!;
    if (req.method === 'GET') {
      if (!member.get(caller.userId, chatId)) return send(res, 404, '{}');
      const limit = Math.min(Number(new URLSearchParams(match[2] ?? '').get('limit') ?? 20), 100);
      const total = (count.get(chatId) as { n: number }).n;
      const rows = page.all(chatId, limit, 0) as MessageRow[];
      return send(res, 200, JSON.stringify({ data: rows.map(publicMessage), meta: { total, limit, offset: 0 } }));
    }
    if (req.method === 'POST') {
      const body = JSON.parse(await readBody(req)) as { data?: { text?: unknown } };
      const text = body.data?.text;
      if (typeof text !== 'string' || text.length === 0 || text.length > 4000) return send(res, 400, '{}');
      if (!member.get(caller.userId, chatId)) return send(res, 404, '{}');
      const row: MessageRow = { id: newId(now), chatId, authorId: caller.userId, text, replyTo: null, createdAt: now, updatedAt: now, editedAt: null, reactions: '[]' };
      insert.run(row);
      return send(res, 201, JSON.stringify({ data: publicMessage(row) }), { Location: `/chats/${chatId}/messages/${row.id}` });
    }
    return send(res, 405, '{}');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, '{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => {
        db.close();
        resolve();
      });
      server.closeIdleConnections();
    }),
  };
}
