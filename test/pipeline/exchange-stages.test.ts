// The stages that fill in an Exchange (src/pipeline/exchange.ts): form decoding and a form's rule, authentication, the write quota,
// the handler with a form's answer, and the problem any error becomes. Called directly, with services made for the test.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { HttpError } from '../../src/http/http-error.ts';
import { ClientPresence } from '../../src/http/client-presence.ts';
import { decodeForm } from '../../src/pipeline/decode-form.ts';
import { routeForm } from '../../src/pipeline/find-route.ts';
import { Exchange } from '../../src/pipeline/exchange.ts';
import { problemReply } from '../../src/pipeline/problem-reply.ts';
import { runHandler } from '../../src/pipeline/run-handler.ts';
import { takeWriteQuota } from '../../src/pipeline/take-write-quota.ts';
import { authenticateCaller } from '../../src/pipeline/authenticate-caller.ts';
import type { AppServices, Reply, Route } from '../../src/resources/context.ts';
import { RouteTable } from '../../src/router/route-table.ts';
import { StoreConstraintError, StoreUnavailableError } from '../../src/storage/store.ts';

const ORIGIN = 'http://chat.test';

function services(overrides: Partial<AppServices> = {}): AppServices {
  return {
    config: { maxBodyBytes: 1000, basePath: '/api', trustProxy: false },
    publicOrigin: () => ORIGIN,
    // A store that keeps nothing: every read is made (storage/read-through.ts).
    storage: { keptReads: () => ({ keep: (_kind: string, _key: string, read: () => unknown) => read() }) },
    writeLimit: { enabled: false },
    ...overrides,
  } as unknown as AppServices;
}

function request(method: string, headers: Record<string, string>, body = ''): IncomingMessage {
  return Object.assign(Readable.from(body === '' ? [] : [Buffer.from(body)]), { method, url: '/', headers, rawHeaders: [] }) as unknown as IncomingMessage;
}

function exchange(req: IncomingMessage, overrides: Partial<AppServices> = {}): Exchange {
  const res = { destroyed: false, writableFinished: false, once() {} };
  return Exchange.start(req, 'r-1', services(overrides), { route: 'unmatched', userId: undefined }, new ClientPresence(res as never));
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN };

test('form decoding: a same-origin form post takes its method from _method and its JSON body from its route\'s rule', async () => {
  const ex = exchange(request('POST', FORM, '_method=PATCH&_back=%2Fapi%2Fchats%2Fc1&data=x&text=hello'));
  await decodeForm(ex);
  assert.equal(ex.method, 'PATCH');
  assert.equal(ex.form?.back, '/api/chats/c1');
  routeForm(ex, '/chats/:chatId/messages/:messageId', '/api/chats/c1/messages/m1');
  assert.ok(ex.formRule);
  assert.deepEqual(ex.form?.body, { data: { data: 'x', text: 'hello' } });
});

test('form decoding: other requests are left as they are; a form to a route that takes none is a 415 naming it', async () => {
  for (const headers of [{ ...FORM, origin: 'http://elsewhere' }, { 'content-type': 'application/json', origin: ORIGIN }, { ...FORM, authorization: 'Bearer t' }]) {
    const ex = exchange(request('POST', headers, 'a=1'));
    // Nothing to read, nothing to wait for: no promise (an await is a turn of the event loop).
    assert.equal(decodeForm(ex), undefined);
    assert.equal(ex.form, undefined);
    assert.equal(ex.method, 'POST');
    routeForm(ex, '/events', '/api/events');
    assert.equal(ex.formRule, undefined);
  }
  const ex = exchange(request('POST', FORM, 'a=1'));
  await decodeForm(ex);
  assert.throws(() => routeForm(ex, '/events', '/api/events'),
    (error: HttpError) => error.status === 415 && error.detail === 'POST /api/events takes no HTML form: send the body as application/json');
  const bad = exchange(request('POST', FORM, '_method=GET'));
  await assert.rejects(decodeForm(bad)!, (error: HttpError) => error.status === 400 && error.errors?.[0]?.field === '_method');
});

test('authentication: a public route reads no caller; a required one is a 401 without a token', async () => {
  const ex = exchange(request('GET', {}));
  assert.equal(authenticateCaller(ex, { auth: 'public' } as Route), undefined);
  assert.equal(ex.caller, undefined);
  await assert.rejects(authenticateCaller(ex, { auth: 'required' } as Route)!, (error: HttpError) => error.status === 401 && error.headers['WWW-Authenticate'] === 'Bearer realm="chat"');
  await authenticateCaller(ex, { auth: 'optional' } as Route);
  assert.equal(ex.caller, undefined);
  assert.equal(ex.labels.userId, undefined);
});

test('limits: a signed-in write is counted and its RateLimit fields go on the answer; reads, logouts and anonymous calls are not', async () => {
  const taken: string[] = [];
  const writeLimit = { enabled: true, take: async (key: string) => { taken.push(key); return { headers: { RateLimit: 'limit=5, remaining=4' } }; } };
  const write = exchange(request('POST', {}), { writeLimit } as never);
  write.caller = { userId: 'u1', sessionId: 's1', via: 'header' };
  await takeWriteQuota(write, {} as Route);
  assert.deepEqual(write.ownHeaders, { RateLimit: 'limit=5, remaining=4' });
  for (const [method, route, caller] of [['GET', {}, true], ['DELETE', { writeLimited: false }, true], ['POST', {}, false]] as const) {
    const ex = exchange(request(method, {}), { writeLimit } as never);
    if (caller) ex.caller = { userId: 'u2', sessionId: 's2', via: 'header' };
    assert.equal(takeWriteQuota(ex, route as Route), undefined);
    assert.equal(ex.ownHeaders, undefined);
  }
  assert.deepEqual(taken, ['u1']);
});

test('the handler: a form\'s success is a 303 to the page its rule names, with the handler\'s cookie', async () => {
  const handler = (): Reply => ({ status: 201, headers: { 'Set-Cookie': 'session=x', Location: '/api/chats/c1' }, representation: { kind: 'single', type: 'chat', enveloped: true, data: { id: 'c1' } } });
  const chats = { method: 'POST', pattern: '/chats', handler } as unknown as Route;
  const routes = new RouteTable<Route>([{ method: 'POST', pattern: '/chats', handler: chats }]);
  const ex = exchange(request('POST', FORM, 'title=Hi'));
  await decodeForm(ex);
  routeForm(ex, '/chats', '/api/chats');
  assert.deepEqual(await runHandler(ex, chats, routes), { status: 303, headers: { Location: '/api/chats/c1/messages', 'Set-Cookie': 'session=x' } });
  // Not a form: the handler's reply as it is (JSON needs no page context).
  const json = exchange(request('POST', { 'content-type': 'application/json' }));
  assert.equal((await runHandler(json, chats, routes)).status, 201);
});

test('problems: an HttpError as it is, storage refusals as 503 or 404, anything else a bare 500 with its stack in the log', (t) => {
  const logged: string[] = [];
  t.mock.method(process.stderr, 'write', (chunk: string) => { logged.push(String(chunk)); return true; });
  const conflict = problemReply(new HttpError('ERR_CONFLICT', 'taken'), 'r-1', false, 'text');
  assert.equal(conflict.status, 409);
  assert.equal(logged.length, 0);
  const down = problemReply(new StoreUnavailableError('gone', { cause: new Error('connection refused\nmore') }), 'r-2', false, 'text');
  assert.deepEqual([down.status, down.headers?.['Retry-After']], [503, '2']);
  assert.match(logged[0]!, /database unavailable: connection refused/);
  // Out of file descriptors (docs/operations.md, File descriptors): 503 with Retry-After, never a 500.
  const exhausted = problemReply(Object.assign(new Error('EMFILE: too many open files, open x'), { code: 'EMFILE' }), 'r-6', false, 'text');
  assert.deepEqual([exhausted.status, exhausted.headers?.['Retry-After']], [503, '5']);
  assert.match(logged.at(-1)!, /out of file descriptors: EMFILE: too many open files/);
  const raced = problemReply(new StoreConstraintError('foreign-key', 'fk'), 'r-3', false, 'text');
  assert.equal(raced.status, 404);
  const bug = problemReply(new TypeError('x is undefined'), 'r-4', false, 'text');
  assert.equal(bug.status, 500);
  assert.equal(bug.representation?.kind === 'problem' && bug.representation.data.detail, 'Internal Server Error');
  assert.match(logged.at(-1)!, /TypeError: x is undefined/);
  problemReply(new Error('aborted'), 'r-5', true, 'text');
  assert.match(logged.at(-1)!, /client closed the connection before the answer/);
});

test('an exchange makes links under the base path, and a page shown again shares the request\'s caller and headers', () => {
  const ex = exchange(request('POST', {}));
  assert.equal(ex.href('/chats/:chatId', { chatId: 'a b' }, 'limit=2'), '/api/chats/a%20b?limit=2');
  ex.caller = { userId: 'u1', sessionId: 's1', via: 'cookie' };
  ex.responseHeaders['RateLimit'] = 'x';
  const page = ex.forPage('/chats/c1', 'q=1', { chatId: 'c1' });
  assert.deepEqual([page.method, page.path, page.rawQuery, page.params, page.caller], ['GET', '/chats/c1', 'q=1', { chatId: 'c1' }, ex.caller]);
  assert.equal(page.responseHeaders, ex.responseHeaders);
  assert.equal(page.kept, ex.kept);
});
