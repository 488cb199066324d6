// docs/protocol.md §7.2, §7.8, §11: limits, framing, and bad input answered 4xx, never 5xx.
import { PATHS } from '../../paths.ts';
import { CheckFailure, expectEqual, expectMatch, expectProblem, expectTrue, readHeader } from '../expect.ts';
import { sendRaw } from '../raw-request.ts';
import { check } from './define.ts';

/** Fails on any 5xx (or a dropped connection), which bad input must never cause. */
function expect4xx(status: number, what: string): void {
  if (status < 400 || status > 499) throw new CheckFailure(`${what} answered ${status}, not a 4xx`);
}

export const HARDENING_CHECKS = [
  check('hardening.body.too-large-413', '§7.2', 'A body larger than --max-body-bytes (1 MiB) MUST be refused with 413 ERR_BODY_TOO_LARGE, and the server stays up', async (ctx) => {
    const alice = await ctx.user('alice');
    const body = JSON.stringify({ data: { title: 'x'.repeat(1024 * 1024 + 10) } });
    expectProblem(await ctx.call('POST', PATHS.chats, { token: alice.token, body, headers: { 'Content-Type': 'application/json' } }), 413, 'ERR_BODY_TOO_LARGE');
    expectEqual((await ctx.call('GET', PATHS.health)).status, 200, 'the health after');
  }),
  check('hardening.body.too-large-chunked', '§7.2', 'Refused from Content-Length or while it streams: a chunked body over the limit gets 413 too', async (ctx) => {
    const alice = await ctx.user('alice');
    const chunk = 'x'.repeat(64 * 1024);
    const chunks = Array.from({ length: 18 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const head = `POST ${ctx.prefixed(PATHS.chats)} HTTP/1.1\r\nHost: ${ctx.base.host}\r\nAuthorization: Bearer ${alice.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    const answer = await sendRaw(ctx, `${head}${chunks}0\r\n\r\n`);
    expectEqual(answer.status, 413, 'the status');
  }),
  check('hardening.body.invalid-utf8-400', '§7.2', 'Invalid UTF-8: 400 ERR_BAD_JSON', async (ctx) => {
    const alice = await ctx.user('alice');
    const body = Buffer.concat([Buffer.from('{"data":{"title":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]);
    expectProblem(await ctx.call('POST', PATHS.chats, { token: alice.token, body, headers: { 'Content-Type': 'application/json' } }), 400, 'ERR_BAD_JSON');
  }),
  check('hardening.input.deep-json', '§7.2', 'A deeply nested body is a 4xx, never a 5xx', async (ctx) => {
    const alice = await ctx.user('alice');
    const body = `{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect4xx((await ctx.call('POST', PATHS.chats, { token: alice.token, body, headers: { 'Content-Type': 'application/json' } })).status, 'a body nested 100000 deep');
  }),
  check('hardening.input.wrong-types', '§1.7', 'A field of the wrong type is a 400 naming it', async (ctx) => {
    const [alice, bob] = [await ctx.user('alice'), await ctx.user('bob')];
    const chat = await ctx.chat(alice, [bob]);
    const cases: [string, string, unknown, string][] = [
      ['POST', PATHS.chats, { data: { title: ['x'] } }, 'data.title'],
      ['POST', PATHS.chats, { data: { title: 'x', members: 'everyone' } }, 'data.members'],
      ['POST', PATHS.chats, { data: { title: 'x', members: [7] } }, 'data.members'],
      ['POST', PATHS.chats, { data: null }, 'data'],
      ['POST', ctx.at(PATHS.messages, { chatId: chat.id }), { data: { text: 5 } }, 'data.text'],
      ['POST', ctx.at(PATHS.messages, { chatId: chat.id }), { data: { text: 'x', replyTo: 5 } }, 'data.replyTo'],
      ['PUT', ctx.at(PATHS.read, { chatId: chat.id }), { data: { lastReadId: { id: 'x' } } }, 'data.lastReadId'],
      ['PATCH', PATHS.users, { login: false }, 'login'],
      ['POST', PATHS.session, { login: 3, password: 'whatever it is' }, 'login'],
    ];
    for (const [method, path, json, field] of cases) {
      expectProblem(await ctx.call(method, path, { token: alice.token, json }), 400, undefined, field);
    }
  }),
  check('hardening.input.bad-queries', '§6.7', 'Odd query strings are answered 4xx or 200, never 5xx', async (ctx) => {
    const alice = await ctx.user('alice');
    const queries = ['%', '%zz=1', 'limit=99999999999999999999', 'offset=99999999999999999999', 'filter=', 'filter=||', 'filter=id|in|',
      'sort=', 'sort[]=asc', 'filter[id]=', 'filter[id][]=', 'createdAt=1-2-3', 'createdAt=>', 'title=%00', 'filter=title|like|%5C', `title=${'x'.repeat(8000)}`];
    for (const query of queries) {
      const reply = await ctx.call('GET', `${PATHS.chats}?${query}`, { token: alice.token });
      if (reply.status !== 200) expect4xx(reply.status, `GET ${PATHS.chats}?${query.slice(0, 40)}`);
    }
  }),
  check('hardening.input.odd-paths', '§1.2', 'Odd path segments are answered 4xx, never 5xx', async (ctx) => {
    const alice = await ctx.user('alice');
    for (const segment of ['x'.repeat(5000), '%F0%9F%98%80', 'a..b', '%2F', 'a%20b', '%EF%BF%BF']) {
      expect4xx((await ctx.call('GET', `${PATHS.chats}/${segment}`, { token: alice.token })).status, `GET ${PATHS.chats}/${segment.slice(0, 20)}`);
      expect4xx((await ctx.call('PUT', `${PATHS.chats}/${segment}/members/${segment}`, { token: alice.token })).status, `PUT a member ${segment.slice(0, 20)}`);
    }
  }),
  check('hardening.framing.two-hosts', '§7.8', 'A request with two Host headers MUST be refused with 400', async (ctx) => {
    const answer = await sendRaw(ctx, `GET ${ctx.prefixed(PATHS.health)} HTTP/1.1\r\nHost: ${ctx.base.host}\r\nHost: other.example\r\n\r\n`);
    expectEqual(answer.status, 400, 'the status');
  }),
  check('hardening.framing.length-and-chunked', '§7.8', 'Both Content-Length and Transfer-Encoding MUST be refused with 400 and the connection closed', async (ctx) => {
    const answer = await sendRaw(ctx, `POST ${ctx.prefixed(PATHS.users)} HTTP/1.1\r\nHost: ${ctx.base.host}\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, { awaitClose: true });
    expectEqual([answer.status, answer.closed], [400, true], 'the status, and whether the connection closed');
  }),
  check('hardening.framing.two-lengths', '§7.8', 'Two different Content-Lengths MUST be refused with 400', async (ctx) => {
    const answer = await sendRaw(ctx, `POST ${ctx.prefixed(PATHS.users)} HTTP/1.1\r\nHost: ${ctx.base.host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`);
    expectEqual(answer.status, 400, 'the status');
  }),
  check('hardening.framing.bad-request-line', '§7.8', 'A malformed request line MUST be refused with 400, as a problem document', async (ctx) => {
    const answer = await sendRaw(ctx, 'GET / HTTP/1.1 extra words\r\nHost: x\r\n\r\n');
    expectEqual(answer.status, 400, 'the status');
    expectMatch(answer.head, /content-type: application\/problem\+json/i, 'the answer\'s head');
  }),
  check('hardening.framing.header-431', '§7.8', 'A header section over 16 KiB: 431', async (ctx) => {
    const answer = await sendRaw(ctx, `GET ${ctx.prefixed(PATHS.health)} HTTP/1.1\r\nHost: ${ctx.base.host}\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`);
    expectEqual(answer.status, 431, 'the status');
  }),
  check('hardening.framing.connect-405', '§7.8', 'CONNECT answers 405', async (ctx) => {
    const answer = await sendRaw(ctx, `CONNECT ${ctx.base.host} HTTP/1.1\r\nHost: ${ctx.base.host}\r\n\r\n`);
    expectEqual(answer.status, 405, 'the status');
  }),
  check('hardening.rates.fields', '§11.1', 'Every answer to a counted write and every POST /users answer carries RateLimit-Policy and RateLimit', async (ctx) => {
    const alice = await ctx.user('alice');
    const write = await ctx.call('POST', PATHS.chats, { token: alice.token, json: { data: { title: ctx.unique('rated') } } });
    if (write.status === 201) ctx.remember(write.json.data.id, alice);
    const policy = readHeader(write, 'ratelimit-policy');
    if (policy === undefined) ctx.skip('this server counts no writes (--write-rate 0)');
    expectMatch(policy, /^"writes";q=\d+;w=60$/, 'RateLimit-Policy');
    expectMatch(readHeader(write, 'ratelimit'), /^"writes";r=\d+;t=\d+$/, 'RateLimit');
  }),
  check('hardening.cors.unlisted-origin', '§11.5', 'An origin not listed gets no Access-Control-* header', async (ctx) => {
    const alice = await ctx.user('alice');
    const reply = await ctx.call('GET', PATHS.session, { token: alice.token, headers: { Origin: 'https://unlisted.invalid' } });
    const found = Object.keys(reply.headers).filter((name) => name.startsWith('access-control-'));
    expectEqual(found, [], 'Access-Control headers');
  }),
  check('hardening.errors.no-details', '§7.5', 'Error answers carry a problem document, not a stack trace', async (ctx) => {
    const alice = await ctx.user('alice');
    const reply = await ctx.call('POST', PATHS.chats, { token: alice.token, body: '{"data": {', headers: { 'Content-Type': 'application/json' } });
    expect4xx(reply.status, 'a truncated body');
    expectTrue(!/\bat .+\.(ts|js):\d+/.test(reply.text), 'the answer shows a stack trace');
  }),
];
