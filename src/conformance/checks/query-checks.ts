// docs/protocol.md §6: collections and the query language, on a chat's history the kit fills itself.
import { PATHS } from '../../paths.ts';
import { expectEqual, expectMatch, expectProblem, expectStatus, readHeader } from '../expect.ts';
import type { KitContext, KitUser } from '../context.ts';
import { check } from './define.ts';

/** A chat of alice's with five messages, `one` to `five`, oldest first. */
async function postFiveMessages(ctx: KitContext): Promise<{ alice: KitUser; path: string; ids: string[]; chatId: string }> {
  const alice = await ctx.user('alice');
  const chat = await ctx.chat(alice);
  const ids = [];
  for (const text of ['one', 'two', 'three', 'four', 'five']) ids.push((await ctx.post(alice, chat.id, text)).id);
  return { alice, path: ctx.at(PATHS.messages, { chatId: chat.id }), ids, chatId: chat.id };
}

const readIds = (reply: { json: any }): string[] => reply.json.data.map((item: { id: string }) => item.id);

export const QUERY_CHECKS = [
  check('core.query.page-shape', '§6.1', 'A collection answers {"data": [...], "meta": {"total", "limit", "offset"}}', async (ctx) => {
    const { alice, path } = await postFiveMessages(ctx);
    const reply = await ctx.call('GET', `${path}?limit=2&offset=1`, { token: alice.token });
    expectStatus(reply, 200);
    expectEqual(reply.json.meta, { total: 5, limit: 2, offset: 1 }, 'meta');
    expectEqual(reply.json.data.length, 2, 'items on the page');
  }),
  check('core.query.link-header', '§6.1', 'A Link header carries rel="next" when items follow and rel="prev" when the offset is above 0, keeping every other parameter', async (ctx) => {
    const { alice, path } = await postFiveMessages(ctx);
    const reply = await ctx.call('GET', `${path}?text=%3E%20&limit=2&offset=2`, { token: alice.token });
    const link = readHeader(reply, 'link') ?? '';
    expectMatch(link, /rel="next"/, 'Link');
    expectMatch(link, /rel="prev"/, 'Link');
    expectMatch(link, /text=%3E%20/, 'Link keeps the other parameters as written');
    const last = await ctx.call('GET', `${path}?limit=5`, { token: alice.token });
    expectEqual(/rel="next"|rel="prev"/.test(readHeader(last, 'link') ?? ''), false, 'a whole first page links nowhere');
  }),
  check('core.query.limit-rules', '§6.2', 'limit defaults to 20; a larger one than 100 is cut to 100; limit=0 answers only the total', async (ctx) => {
    const { alice, path } = await postFiveMessages(ctx);
    expectEqual((await ctx.call('GET', path, { token: alice.token })).json.meta.limit, 20, 'the default limit');
    expectEqual((await ctx.call('GET', `${path}?limit=1000`, { token: alice.token })).json.meta.limit, 100, 'a limit of 1000');
    const zero = await ctx.call('GET', `${path}?limit=0`, { token: alice.token });
    expectEqual([zero.json.data, zero.json.meta.total], [[], 5], 'data and total of limit=0');
  }),
  check('core.query.limit-digits-400', '§6.2', 'limit and offset MUST be non-negative integers in plain digits, else 400; each MAY appear only once', async (ctx) => {
    const alice = await ctx.user('alice');
    for (const [query, field] of [['limit=-1', 'limit'], ['limit=1e2', 'limit'], ['offset=%2B1', 'offset'], ['limit=1&limit=2', 'limit'], ['sort=id&sort=id', 'sort']]) {
      expectProblem(await ctx.call('GET', `${PATHS.chats}?${query}`, { token: alice.token }), 400, 'ERR_BAD_QUERY', field);
    }
  }),
  check('core.query.filter-forms', '§6.4', 'field=value, field>=value, filter=field|op|value and filter[field][]=value all filter, combined with AND', async (ctx) => {
    const { alice, path, ids } = await postFiveMessages(ctx);
    const cases: [string, string[]][] = [
      [`text=three`, [ids[2]!]],
      [`filter=text|like|t%25`, [ids[1]!, ids[2]!]],
      [`filter=text|in|one,five`, [ids[0]!, ids[4]!]],
      [`filter[id][]=${ids[0]}&filter[id][]=${ids[3]}`, [ids[0]!, ids[3]!]],
      [`filter[text]=four`, [ids[3]!]],
      [`id>=${ids[3]}`, [ids[3]!, ids[4]!]],
      [`id=<${ids[1]}`, [ids[0]!]],
      [`filter=text|ne|one&filter=id|lt|${ids[2]}`, [ids[1]!]],
    ];
    for (const [query, expected] of cases) {
      const reply = await ctx.call('GET', `${path}?${query}`, { token: alice.token });
      expectStatus(reply, 200);
      expectEqual(readIds(reply), expected, `the messages of ?${query}`);
    }
  }),
  check('core.query.like-case', '§6.4', 'like takes % and _ as in SQL, ignoring ASCII letter case, with \\ escaping them', async (ctx) => {
    const alice = await ctx.user('alice');
    const chat = await ctx.chat(alice);
    const plain = await ctx.post(alice, chat.id, 'Fifty%Off');
    await ctx.post(alice, chat.id, 'fiftyXoff');
    const reply = await ctx.call('GET', `${ctx.at(PATHS.messages, { chatId: chat.id })}?filter=${encodeURIComponent('text|like|fifty\\%off')}`, { token: alice.token });
    expectEqual(readIds(reply), [plain.id], 'the messages like fifty\\%off');
  }),
  check('core.query.sort-forms', '§6.5', 'sort[field]=DESC, sort=field&order=desc and sort=-field order alike', async (ctx) => {
    const { alice, path, ids } = await postFiveMessages(ctx);
    const reversed = [...ids].reverse();
    for (const query of ['sort[createdAt]=desc', 'sort=createdAt&order=desc', 'sort=-createdAt', 'sort=-id']) {
      expectEqual(readIds(await ctx.call('GET', `${path}?${query}`, { token: alice.token })), reversed, `the order of ?${query}`);
    }
  }),
  check('core.query.login-any-case', '§6.3', 'login compares without regard to letter case', async (ctx) => {
    const alice = await ctx.user('alice');
    const reply = await ctx.call('GET', `${PATHS.users}?login=${alice.login.toUpperCase()}`, { token: alice.token });
    expectEqual(readIds(reply), [alice.id], 'the users with that login');
  }),
  check('core.query.keyset', '§6.6', 'after=<id> answers the limit messages that follow it, before=<id> those that precede it, oldest first', async (ctx) => {
    const { alice, path, ids } = await postFiveMessages(ctx);
    expectEqual(readIds(await ctx.call('GET', `${path}?after=${ids[1]}&limit=2`, { token: alice.token })), [ids[2], ids[3]], 'after the second');
    expectEqual(readIds(await ctx.call('GET', `${path}?before=${ids[3]}&limit=2`, { token: alice.token })), [ids[1], ids[2]], 'before the fourth');
    const window = await ctx.call('GET', `${path}?after=${ids[0]}&before=${ids[4]}`, { token: alice.token });
    expectEqual(readIds(window), ids.slice(1, 4), 'the window');
    expectMatch(readHeader(await ctx.call('GET', `${path}?after=${ids[1]}&limit=2`, { token: alice.token }), 'link'), new RegExp(`after=${ids[3]}`), 'Link next');
  }),
  check('core.query.keyset-400', '§6.6', 'The id MUST be a message of that chat (else 400 naming the parameter); sort and offset cannot be combined', async (ctx) => {
    const { alice, path, ids } = await postFiveMessages(ctx);
    expectProblem(await ctx.call('GET', `${path}?after=${ctx.unique('nomessage')}`, { token: alice.token }), 400, undefined, 'after');
    expectProblem(await ctx.call('GET', `${path}?before=${ids[2]}&offset=1`, { token: alice.token }), 400);
  }),
  check('core.query.unknown-400', '§6.7', 'An unknown parameter or field, operator or direction: 400 ERR_BAD_QUERY naming the parameter as written', async (ctx) => {
    const alice = await ctx.user('alice');
    for (const [query, field] of [['bogus=1', 'bogus'], ['filter=colour|eq|red', 'filter'], ['filter=title|near|x', 'filter'], ['sort[title]=sideways', 'sort[title]'], ['createdAt=yesterday', 'createdAt']]) {
      expectProblem(await ctx.call('GET', `${PATHS.chats}?${query}`, { token: alice.token }), 400, 'ERR_BAD_QUERY', field);
    }
  }),
  check('core.query.first-problem', '§6.7', 'Only the first problem, in the order of the query string, is reported', async (ctx) => {
    const alice = await ctx.user('alice');
    const reply = await ctx.call('GET', `${PATHS.chats}?zeta=1&limit=x`, { token: alice.token });
    expectProblem(reply, 400, 'ERR_BAD_QUERY');
    expectEqual(reply.json.errors.map((error: { field: string }) => error.field), ['zeta'], 'the fields named');
  }),
];
