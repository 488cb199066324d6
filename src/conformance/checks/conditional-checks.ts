// docs/protocol.md §7.7: strong ETags, If-None-Match, If-Match, and the caching of answers that carry data.
import { PATHS } from '../../paths.ts';
import { expectEqual, expectHeader, expectMatch, expectProblem, expectStatus, expectTrue, readHeader } from '../expect.ts';
import { check } from './define.ts';

const STRONG = /^"[^"]+"$/;

export const CONDITIONAL_CHECKS = [
  check('core.conditional.strong-etag', '§7.7', 'Single resources and collection pages carry a strong ETag', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    for (const path of [ctx.at(PATHS.chat, { chatId: chat.id }), ctx.at(PATHS.messages, { chatId: chat.id }), PATHS.chats]) {
      expectMatch(readHeader(await ctx.call('GET', path, { token: alice.token }), 'etag'), STRONG, `the ETag of GET ${path}`);
    }
  }),
  check('core.conditional.user-etag', '§7.7', 'A user carries a strong ETag, and If-None-Match matching it answers 304', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const path = ctx.at(PATHS.user, { userId: bob.id });
    const first = await ctx.call('GET', path, { token: alice.token });
    expectMatch(readHeader(first, 'etag'), STRONG, 'the ETag of the user');
    expectStatus(await ctx.call('GET', path, { token: alice.token, headers: { 'If-None-Match': readHeader(first, 'etag')! } }), 304);
  }),
  check('core.conditional.not-modified', '§7.7', 'If-None-Match on GET/HEAD matching the tag: 304 with the same ETag and no body', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const path = ctx.at(PATHS.chat, { chatId: chat.id });
    const etag = readHeader(await ctx.call('GET', path, { token: alice.token }), 'etag')!;
    for (const method of ['GET', 'HEAD']) {
      const reply = await ctx.call(method, path, { token: alice.token, headers: { 'If-None-Match': etag } });
      expectStatus(reply, 304);
      expectHeader(reply, 'etag', etag);
      expectEqual(reply.raw.length, 0, 'bytes of the 304');
    }
    expectStatus(await ctx.call('GET', path, { token: alice.token, headers: { 'If-None-Match': '"something-else"' } }), 200);
  }),
  check('core.conditional.per-representation', '§7.7', 'The XML and HTML representations have their own tags; If-None-Match compares the tag of the one asked for', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const path = ctx.at(PATHS.chat, { chatId: chat.id });
    const json = readHeader(await ctx.call('GET', path, { token: alice.token }), 'etag');
    const xml = readHeader(await ctx.call('GET', path, { token: alice.token, headers: { Accept: 'application/xml' } }), 'etag');
    const html = readHeader(await ctx.call('GET', path, { token: alice.token, headers: { Accept: 'text/html' } }), 'etag');
    expectTrue(new Set([json, xml, html]).size === 3, `three different tags: ${json}, ${xml}, ${html}`);
    expectStatus(await ctx.call('GET', path, { token: alice.token, headers: { Accept: 'application/xml', 'If-None-Match': json! } }), 200);
  }),
  check('core.conditional.if-match-412', '§7.7', 'If-Match on PUT, PATCH or DELETE not matching: 412 ERR_PRECONDITION_FAILED and nothing changes', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const path = ctx.at(PATHS.chat, { chatId: chat.id });
    expectProblem(await ctx.call('PATCH', path, { token: alice.token, json: { data: { title: 'changed' } }, headers: { 'If-Match': '"stale"' } }), 412, 'ERR_PRECONDITION_FAILED');
    expectProblem(await ctx.call('DELETE', path, { token: alice.token, headers: { 'If-Match': '"stale"' } }), 412, 'ERR_PRECONDITION_FAILED');
    expectEqual((await ctx.call('GET', path, { token: alice.token })).json.data.title, chat.title, 'the title');
  }),
  check('core.conditional.if-match-any-representation', '§7.7', 'If-Match compares the state: any representation\'s tag of it will do', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const path = ctx.at(PATHS.chat, { chatId: chat.id });
    const xml = readHeader(await ctx.call('GET', path, { token: alice.token, headers: { Accept: 'application/xml' } }), 'etag')!;
    expectStatus(await ctx.call('PATCH', path, { token: alice.token, json: { data: { title: 'with the XML tag' } }, headers: { 'If-Match': xml } }), 200);
    const json = readHeader(await ctx.call('GET', path, { token: alice.token }), 'etag')!;
    expectStatus(await ctx.call('PATCH', path, { token: alice.token, json: { data: { title: 'with the JSON tag' } }, headers: { 'If-Match': json } }), 200);
  }),
  check('core.conditional.put-stars', '§7.7', 'PUT with If-None-Match: * on an existing resource, or If-Match: * on a missing one: 412, nothing created or changed', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    expectProblem(await ctx.call('PUT', ctx.at(PATHS.chat, { chatId: chat.id }), { token: alice.token, json: { data: { title: 'over' } }, headers: { 'If-None-Match': '*' } }), 412, 'ERR_PRECONDITION_FAILED');
    const missing = ctx.at(PATHS.chat, { chatId: ctx.unique('starred') });
    expectProblem(await ctx.call('PUT', missing, { token: alice.token, json: { data: { title: 'new' } }, headers: { 'If-Match': '*' } }), 412, 'ERR_PRECONDITION_FAILED');
    expectStatus(await ctx.call('GET', missing, { token: alice.token }), 404);
  }),
  check('core.conditional.page-star-only', '§7.7', 'DELETE /chats/{id}/messages honours only If-Match: *', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    await ctx.post(alice, chat.id, 'kept');
    const path = ctx.at(PATHS.messages, { chatId: chat.id });
    const etag = readHeader(await ctx.call('GET', path, { token: alice.token }), 'etag')!;
    expectProblem(await ctx.call('DELETE', path, { token: alice.token, headers: { 'If-Match': etag } }), 412, 'ERR_PRECONDITION_FAILED');
    expectStatus(await ctx.call('DELETE', path, { token: alice.token, headers: { 'If-Match': '*' } }), 204);
  }),
  check('core.conditional.cache-control', '§7.7', 'Answers that carry data are Cache-Control: private, no-cache', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    for (const path of [ctx.at(PATHS.chat, { chatId: chat.id }), PATHS.chats, PATHS.session]) {
      expectHeader(await ctx.call('GET', path, { token: alice.token }), 'cache-control', 'private, no-cache');
    }
  }),
];
