// The framework peer: fastify doing the work of bench/peer-work.ts (the same statements and row -> public
// fields as the bare peer), each answer serialized by fast-json-stringify from a response schema, as a
// careful fastify user would write it. Bodies are byte-identical to ours (bench/peers.bench.ts checks).
import Fastify from 'fastify';
import { openPeerWork } from './peer-work.ts';

const text = { type: 'string' } as const;
const nullableText = { type: ['string', 'null'] } as const;
const reactions = {
  type: 'array',
  items: { type: 'object', properties: { emoji: text, count: { type: 'integer' }, userIds: { type: 'array', items: text } } },
} as const;
const MESSAGE_PROPERTIES = {
  id: text, chatId: text, authorId: text, text, replyTo: nullableText, createdAt: text, updatedAt: text, editedAt: nullableText, reactions,
};
const CHAT_PROPERTIES = {
  id: text, title: text, ownerId: text, members: { type: 'array', items: text }, createdAt: text, updatedAt: text, lastReadId: nullableText, unreadCount: { type: 'integer' },
};
const META = { type: 'object', properties: { total: { type: 'integer' }, limit: { type: 'integer' }, offset: { type: 'integer' } } } as const;
const enveloped = (properties: Record<string, unknown>) => ({ type: 'object', properties: { data: { type: 'object', properties } } });
/**
 * One search result: a message or a chat (a user cannot match "fox" or a seeded word) with its `type` first.
 * Every property is optional, so each kind writes exactly its own fields, in our order.
 */
const RESULT = {
  type: 'object',
  properties: {
    type: text, id: text, chatId: text, authorId: text, text, replyTo: nullableText, title: text, ownerId: text, members: { type: 'array', items: text },
    createdAt: text, updatedAt: text, editedAt: nullableText, reactions, lastReadId: nullableText, unreadCount: { type: 'integer' },
  },
};

export async function start(options: { db: string }): Promise<{ url: string; close(): Promise<void> }> {
  const work = openPeerWork(options.db);
  const app = Fastify({ logger: false });
  app.decorateRequest('userId', '');
  app.addHook('onRequest', async (request, reply) => {
    const userId = work.caller(request.headers.authorization);
    if (!userId) return reply.code(401).send({});
    (request as unknown as { userId: string }).userId = userId;
    return undefined;
  });
  const userOf = (request: unknown): string => (request as { userId: string }).userId;
  type ChatParams = { Params: { chatId: string } };

  app.get<ChatParams & { Querystring: { limit?: string } }>('/chats/:chatId/messages', {
    schema: { response: { 200: { type: 'object', properties: { data: { type: 'array', items: { type: 'object', properties: MESSAGE_PROPERTIES } }, meta: META } } } },
  }, async (request, reply) => {
    const limit = Math.min(Number(request.query.limit ?? 20), 100);
    const page = work.page(userOf(request), request.params.chatId, limit);
    return page ?? reply.code(404).send({});
  });
  app.get<ChatParams>('/chats/:chatId', { schema: { response: { 200: enveloped(CHAT_PROPERTIES) } } }, async (request, reply) =>
    work.chat(userOf(request), request.params.chatId) ?? reply.code(404).send({}));
  app.post<ChatParams & { Body: { data?: { text?: unknown } } }>('/chats/:chatId/messages', { schema: { response: { 201: enveloped(MESSAGE_PROPERTIES) } } }, async (request, reply) => {
    const body = request.body?.data?.text;
    if (typeof body !== 'string' || body.length === 0 || body.length > 4000) return reply.code(400).send({});
    const posted = work.post(userOf(request), request.params.chatId, body);
    if (!posted) return reply.code(404).send({});
    return reply.code(201).header('Location', `/chats/${request.params.chatId}/messages/${String(posted.data['id'])}`).send(posted);
  });
  app.get<{ Querystring: { q: string } }>('/search', {
    schema: { response: { 200: { type: 'object', properties: { data: { type: 'array', items: RESULT }, meta: META } } } },
  }, async (request) => work.search(userOf(request), request.query.q));

  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    close: async () => {
      await app.close();
      work.close();
    },
  };
}
