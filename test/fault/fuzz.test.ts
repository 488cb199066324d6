// Fuzzing over a real socket: at least 20,000 generated requests; never a 5xx, never a crash or an unhandled
// rejection, every 4xx carries a problem document whose status is the HTTP status, and every answer is one
// the OpenAPI document describes. Then signed-in, same-origin form posts to every form route (docs/html.md,
// forms) with hostile bytes in every field, `_back` and `_method` included: never a 5xx nor a crash either.
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { test } from 'node:test';
import fc from 'fast-check';
import { makePng } from '../../bench/png.ts';
import { negotiateMediaType, REPRESENTATION_TYPES } from '../../src/http/negotiate.ts';
import type { RunningServer } from '../../src/index.ts';
import { startTestServer } from '../http/client.ts';
import { ALL_ROUTES } from '../../src/resources/all-routes.ts';
import { checkExchange } from '../http/openapi-check.ts';
import { FORM_RULES } from '../../src/resources/form-rules.ts';
import { formPostArbitrary, requestArbitrary, type FuzzRequest, type IdPools } from './fuzz-requests.ts';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_121);
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 20_000);
/** Signed-in, same-origin form posts (docs/html.md, forms) on top of RUNS: every form route, hostile values in every field. */
const FORM_RUNS = Number(process.env['FUZZ_FORM_RUNS'] ?? 8_000);
const CONCURRENCY = 20;
const ROUNDS = 10;
const MAX_BODY_BYTES = 64 * 1024;
const PASSWORD = 'the fuzzer never guesses this one';

interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
}

interface Account {
  login: string;
  userId: string;
  token: string;
}

/** `checked`: false for an HTML form post, which stands for another method and is outside the OpenAPI document (docs/html.md). */
function send(server: RunningServer, agent: Agent, method: string, path: string, headers: Record<string, string>, body?: Buffer, chunked = false, checked = true): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const allHeaders = { ...headers };
    if (body !== undefined && !chunked) allHeaders['content-length'] = String(body.length);
    if (chunked) allHeaders['transfer-encoding'] = 'chunked';
    const req = request(`${server.url}${path}`, { method, headers: allHeaders, agent, timeout: 20_000 }, (res) => {
      if (String(res.headers['content-type']).startsWith('text/event-stream')) {
        // An event stream never ends by itself: its answer is its status and headers.
        resolve({ status: res.statusCode!, contentType: 'text/event-stream', body: Buffer.alloc(0) });
        req.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const answer = { status: res.statusCode!, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) };
        if (!checked) {
          resolve(answer);
          return;
        }
        // Even garbage gets an answer the OpenAPI document describes (status, headers, problem body).
        try {
          const request = body && { contentType: headers['content-type'], text: body.toString('utf8') };
          checkExchange({ method, url: path, basePath: '', status: answer.status, headers: res.headers, text: answer.body.toString(), ...(request ? { request } : {}) });
        } catch (error) {
          reject(error);
          return;
        }
        resolve(answer);
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 20 s')));
    req.on('error', reject);
    if (body !== undefined && chunked) {
      req.write(body.subarray(0, body.length >> 1));
      req.end(body.subarray(body.length >> 1));
    } else {
      req.end(body);
    }
  });
}

async function sendJson(server: RunningServer, agent: Agent, method: string, path: string, data: unknown, token?: string): Promise<any> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['authorization'] = `Bearer ${token}`;
  const answer = await send(server, agent, method, path, headers, Buffer.from(JSON.stringify(data)));
  if (answer.status >= 300) throw new Error(`setup ${method} ${path}: ${answer.status} ${answer.body}`);
  return JSON.parse(answer.body.toString() || 'null');
}

/** What is wrong with a 4xx answer, or undefined when it is a proper problem document. */
function problemDefect(request: FuzzRequest, answer: Answer): string | undefined {
  if (request.method === 'HEAD') return undefined;
  // problem+json always does; a problem in XML or HTML only when that is what the Accept header negotiates.
  const chosen = negotiateMediaType(request.headers['accept'], REPRESENTATION_TYPES) ?? 'application/json';
  const text = answer.body.toString('utf8');
  if (answer.contentType.startsWith('application/problem+json')) {
    let problem: Record<string, unknown>;
    try {
      problem = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return `unparseable problem+json: ${text.slice(0, 200)}`;
    }
    for (const field of ['type', 'title', 'detail', 'code']) {
      if (typeof problem[field] !== 'string') return `problem.${field} is not a string: ${text.slice(0, 300)}`;
    }
    if (problem['status'] !== answer.status) return `problem.status ${String(problem['status'])} differs from ${answer.status}`;
    return undefined;
  }
  // A client that asked for XML or HTML gets the same problem in that representation (RFC 9457 Appendix B).
  if (answer.contentType.startsWith('application/problem+xml') && chosen === 'application/xml') {
    return text.includes(`<status>${answer.status}</status>`) ? undefined : `problem+xml without its status: ${text.slice(0, 300)}`;
  }
  if (answer.contentType.startsWith('text/html') && chosen === 'text/html') {
    return text.includes(String(answer.status)) ? undefined : `HTML problem without its status: ${text.slice(0, 300)}`;
  }
  return `a ${answer.status} that is not a ${chosen} problem document (Content-Type "${answer.contentType}"): ${text.slice(0, 200)}`;
}

function hasRoute(method: string, pattern: string): boolean {
  return ALL_ROUTES.some((route) => route.method === method && route.pattern === pattern);
}

test(`${RUNS} fuzzed requests and ${FORM_RUNS} form posts: no 5xx, no crash, a problem document for every 4xx`, { timeout: 300_000 }, async (t) => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => { unhandled.push(reason); };
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
  t.after(() => {
    process.off('unhandledRejection', onUnhandled);
    process.off('uncaughtException', onUnhandled);
  });
  const server = await startTestServer({ loginMaxFailures: 1_000_000, maxBodyBytes: MAX_BODY_BYTES, maxAvatarBytes: 4 * MAX_BODY_BYTES });
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  t.after(async () => {
    agent.destroy();
    await server.close();
  });

  // Three users: an owner of chats, a member of them, an outsider; ids of real resources for the paths.
  const accounts: Record<'owner' | 'member' | 'outsider', Account> = {} as never;
  for (const role of ['owner', 'member', 'outsider'] as const) {
    const login = `fuzz-${role}`;
    const user = await sendJson(server, agent, 'POST', '/users', { login, password: PASSWORD });
    const session = await sendJson(server, agent, 'POST', '/session', { login, password: PASSWORD });
    accounts[role] = { login, userId: user.id, token: session.token };
  }
  let relogins = 0;
  const reloggingIn = new Map<string, Promise<void>>();
  const relogin = (role: keyof typeof accounts): Promise<void> => {
    const running = reloggingIn.get(role) ?? (async () => {
      // A fuzzed PATCH may have changed the login: read the current one from the server's own storage.
      const login = (await server.app.services.storage.users.findUserById(accounts[role].userId))?.login ?? accounts[role].login;
      const credentials = Buffer.from(JSON.stringify({ login, password: PASSWORD }));
      const session = await send(server, agent, 'POST', '/session', { 'content-type': 'application/json' }, credentials);
      if (session.status === 201) {
        accounts[role].token = JSON.parse(session.body.toString()).token;
        relogins += 1;
      }
      reloggingIn.delete(role);
    })();
    reloggingIn.set(role, running);
    return running;
  };

  /** Fresh chats, messages and an avatar for each round, so deletions by earlier rounds do not leave only 404s. */
  const createResources = async (round: number): Promise<IdPools> => {
    for (const role of ['owner', 'member', 'outsider'] as const) {
      // A fuzzed DELETE /users/{id} by an admin (who needs no password) may have erased the account: sign it up again.
      if (!(await server.app.services.storage.users.findUserById(accounts[role].userId))) {
        accounts[role].userId = (await sendJson(server, agent, 'POST', '/users', { login: accounts[role].login, password: PASSWORD })).id;
      }
      if ((await send(server, agent, 'GET', '/session', { authorization: `Bearer ${accounts[role].token}` })).status !== 200) await relogin(role);
    }
    const pools: IdPools = { userId: Object.values(accounts).map((account) => account.userId) };
    if (hasRoute('POST', '/chats')) {
      pools['chatId'] = [];
      pools['messageId'] = [];
      for (let index = 0; index < 3; index += 1) {
        const chat = await sendJson(server, agent, 'POST', '/chats', { data: { title: `fuzz chat ${round}.${index}`, members: [accounts.member.userId] } }, accounts.owner.token);
        pools['chatId'].push(chat.data.id);
        if (!hasRoute('POST', '/chats/:chatId/messages')) continue;
        for (let message = 0; message < 4; message += 1) {
          const author = message % 2 === 0 ? accounts.member : accounts.owner;
          const posted = await sendJson(server, agent, 'POST', `/chats/${chat.data.id}/messages`, { data: { text: `hello ${round}.${index}.${message}` } }, author.token);
          pools['messageId'].push(posted.data.id);
        }
      }
    }
    if (hasRoute('POST', '/users/:userId/avatar')) {
      const avatar = await sendJson(server, agent, 'POST', `/users/${accounts.owner.userId}/avatar`, { avatar: makePng(8, 8, round).toString('base64'), x: 0, y: 0, width: 8, height: 8 }, accounts.owner.token);
      pools['avatarId'] = [avatar.id];
    }
    return pools;
  };
  const routes = ALL_ROUTES.map(({ method, pattern }) => ({ method, pattern }));
  t.diagnostic(`seed ${SEED} (FUZZ_SEED), ${RUNS} requests over ${routes.length} routes, in ${ROUNDS} rounds`);

  const failures: string[] = [];
  const statuses = new Map<number, number>();
  const formStatuses = new Map<number, number>();
  let transportErrors = 0;
  const runOne = async (fuzzed: FuzzRequest): Promise<void> => {
    const headers = { ...fuzzed.headers };
    const account = fuzzed.auth === 'none' ? undefined : accounts[fuzzed.auth];
    if (account) {
      if (fuzzed.authForm === 'bearer') headers['authorization'] = `Bearer ${account.token}`;
      else if (fuzzed.authForm === 'lowercase') headers['authorization'] = `bearer ${account.token}`;
      else headers['cookie'] = `session=${account.token}`;
      if (fuzzed.authForm === 'cookie-with-origin') headers['origin'] = server.url;
    }
    // A fuzzed POST with a form media type, this server's Origin and no Authorization is a browser's form post to the
    // server (src/http/form-post.ts), whatever the fuzzer meant: it may answer 303 or its form's page, outside the document.
    const header = (name: string): string => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? '';
    const isBrowserForm = fuzzed.form !== undefined || (fuzzed.method === 'POST' && header('origin') === server.url && header('authorization') === ''
      && /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i.test(header('content-type')));
    let answer: Answer;
    try {
      // A long-poll waits up to 25 s by design when nothing happens: the fuzzer asks it not to wait.
      const waitless = /^\/events(\?|$)/.test(fuzzed.path) && !/[?&]wait=/.test(fuzzed.path);
      const path = waitless ? `${fuzzed.path}${fuzzed.path.includes('?') ? '&' : '?'}wait=0` : fuzzed.path;
      answer = await send(server, agent, fuzzed.method, path, headers, fuzzed.body, fuzzed.chunked, !isBrowserForm);
    } catch (error) {
      // A 413 is answered before the rest of the body is read, then the connection closes: the client may see a reset.
      transportErrors += 1;
      if ((fuzzed.body?.length ?? 0) <= MAX_BODY_BYTES) failures.push(`${fuzzed.method} ${fuzzed.path}: no answer (${(error as Error).message})`);
      return;
    }
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    if (fuzzed.form) formStatuses.set(answer.status, (formStatuses.get(answer.status) ?? 0) + 1);
    const where = `${fuzzed.method} ${fuzzed.path} ${JSON.stringify(headers)} body=${fuzzed.body?.subarray(0, 120).toString() ?? ''}`;
    if (answer.status >= 500) failures.push(`${answer.status} for ${where}: ${answer.body.subarray(0, 300).toString()}`);
    // A form post that broke a rule may answer its form's page again, in HTML (docs/html.md, forms rule 6).
    else if (answer.status >= 400 && !(isBrowserForm && answer.contentType.startsWith('text/html'))) {
      const defect = problemDefect(fuzzed, answer);
      if (defect) failures.push(`${defect} for ${where}`);
    }
    if (fuzzed.auth === 'none' || !account) return;
    // Keep the sessions alive for the rest of the run: a fuzzed logout must not starve it of authenticated requests.
    const method = fuzzed.form?.standsFor ?? fuzzed.method;
    if (answer.status === 401 || (method === 'DELETE' && fuzzed.path.startsWith('/session') && answer.status < 400)) await relogin(fuzzed.auth);
  };

  // Every route an HTML form may write (src/resources/form-rules.ts), each posted as a browser of this site would.
  const formRoutes = [...FORM_RULES.keys()].map((key) => ({ method: key.slice(0, key.indexOf(' ')), pattern: key.slice(key.indexOf(' ') + 1) }));
  const formRoutesSent = new Set<string>();
  const runAll = async (requests: readonly FuzzRequest[]): Promise<void> => {
    let next = 0;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests.length) await runOne(requests[next++]!);
    }));
  };
  let sent = 0;
  let formsSent = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const pools = await createResources(round);
    const requests = fc.sample(requestArbitrary(routes, pools, MAX_BODY_BYTES), { numRuns: Math.ceil(RUNS / ROUNDS), seed: SEED + round });
    await runAll(requests);
    sent += requests.length;
    if (FORM_RUNS === 0) continue;
    // Fresh resources again: the requests above deleted some, and a form's 303 needs a write that succeeds.
    const formPools = await createResources(round);
    const forms = fc.sample(formPostArbitrary(formRoutes, formPools), { numRuns: Math.ceil(FORM_RUNS / ROUNDS), seed: SEED + round });
    for (const form of forms) formRoutesSent.add(`${form.form!.standsFor} ${form.path}`);
    await runAll(forms);
    formsSent += forms.length;
  }

  const health = await send(server, agent, 'GET', '/health', {});
  t.diagnostic(`statuses: ${[...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')}; `
    + `${transportErrors} connections reset after an oversized body; ${relogins} re-logins`);
  t.diagnostic(`form posts: ${[...formStatuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')}`);
  assert.equal(health.status, 200, 'the server still answers');
  assert.deepEqual(unhandled, [], 'no unhandled rejection or uncaught exception');
  assert.equal(failures.length, 0, `${failures.length} bad answers; the first ones:\n${failures.slice(0, 15).join('\n')}`);
  assert.ok(sent >= RUNS);
  assert.ok(formsSent >= FORM_RUNS);
  if (FORM_RUNS >= 1000) {
    // Every form route was posted to, and enough form writes succeeded that `_back` became a Location often.
    for (const route of formRoutes) {
      const pattern = new RegExp(`^${route.method} ${route.pattern.replace(/:\w+/g, '[^/]+')}$`);
      assert.ok([...formRoutesSent].some((sentTo) => pattern.test(sentTo)), `no form post for ${route.method} ${route.pattern}`);
    }
    assert.ok((formStatuses.get(303) ?? 0) >= FORM_RUNS / 40, `only ${formStatuses.get(303) ?? 0} form posts succeeded (303)`);
  }
});
