// The bare peer: a node:http server doing what GET /chats/{id}, GET and POST /chats/{id}/messages and
// GET /search?q= must do (token lookup, membership, the same SQL, the app's own row -> public fields:
// bench/peer-work.ts), serialized with JSON.stringify, and nothing else.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openPeerWork } from './peer-work.ts';

const MESSAGES = /^\/chats\/([A-Za-z0-9_-]{1,64})\/messages(?:\?(.*))?$/;
const CHAT = /^\/chats\/([A-Za-z0-9_-]{1,64})$/;
const SEARCH = /^\/search\?q=([A-Za-z0-9]+)(?:&limit=(\d{1,3}))?$/;

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
  const work = openPeerWork(options.db);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '';
    const userId = work.caller(req.headers.authorization);
    if (!userId) return send(res, 401, '{}');
    const search = SEARCH.exec(url);
    if (search && req.method === 'GET') return send(res, 200, JSON.stringify(work.search(userId, search[1]!, search[2] === undefined ? undefined : Math.min(Number(search[2]), 100))));
    const chat = CHAT.exec(url);
    if (chat && req.method === 'GET') {
      const found = work.chat(userId, chat[1]!);
      return found ? send(res, 200, JSON.stringify(found)) : send(res, 404, '{}');
    }
    const match = MESSAGES.exec(url);
    if (!match) return send(res, 404, '{}');
    const chatId = match[1]!;
    if (req.method === 'GET') {
      const limit = Math.min(Number(new URLSearchParams(match[2] ?? '').get('limit') ?? 20), 100);
      const page = work.page(userId, chatId, limit);
      return page ? send(res, 200, JSON.stringify(page)) : send(res, 404, '{}');
    }
    if (req.method === 'POST') {
      const body = JSON.parse(await readBody(req)) as { data?: { text?: unknown } };
      const text = body.data?.text;
      if (typeof text !== 'string' || text.length === 0 || text.length > 4000) return send(res, 400, '{}');
      const posted = work.post(userId, chatId, text);
      if (!posted) return send(res, 404, '{}');
      return send(res, 201, JSON.stringify(posted), { Location: `/chats/${chatId}/messages/${String(posted.data['id'])}` });
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
        work.close();
        resolve();
      });
      server.closeIdleConnections();
    }),
  };
}
