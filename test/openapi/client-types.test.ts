// The document is useful to a client generator: openapi-typescript turns /openapi.json into types, a small
// client (register, log in, create a chat, post, read a page) type-checks against them with tsc --strict,
// a client that gets a field wrong does not, and the typed client then runs against a real server.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { call, withServer } from '../http/client.ts';

const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

const TSCONFIG = {
  compilerOptions: {
    strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext',
    lib: ['es2022', 'dom'], types: [], skipLibCheck: false, noUncheckedIndexedAccess: true,
  },
  include: ['*.ts'],
};

// Only the generated types say what goes in and what comes back: no hand-written shape.
const CLIENT = `import type { paths } from './api.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: infer R } ? Json<NonNullable<R>> : never;
type Answer<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends { responses: infer R } ? S extends keyof R ? Json<R[S]> : never : never;

async function send<T>(base: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token !== undefined) headers['authorization'] = 'Bearer ' + token;
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(method + ' ' + path + ': ' + res.status);
  return (await res.json()) as T;
}

export async function run(base: string): Promise<{ login: string; title: string | null; text: string; total: number }> {
  const credentials: Body<'/users', 'post'> = { login: 'typed', password: 'correct horse battery' };
  const user = await send<Answer<'/users', 'post', 201>>(base, 'POST', '/users', credentials);
  const session = await send<Answer<'/session', 'post', 201>>(base, 'POST', '/session', credentials);
  const token: string = session.token;
  const newChat: Body<'/chats', 'post'> = { data: { title: 'Typed', members: [] } };
  const chat = await send<Answer<'/chats', 'post', 201>>(base, 'POST', '/chats', newChat, token);
  const post: Body<'/chats/{chatId}/messages', 'post'> = { data: { text: 'hello', replyTo: null } };
  await send<Answer<'/chats/{chatId}/messages', 'post', 201>>(base, 'POST', '/chats/' + chat.data.id + '/messages', post, token);
  const query: NonNullable<paths['/chats/{chatId}/messages']['get']['parameters']['query']> = { limit: 10, sort: '-createdAt' };
  const page = await send<Answer<'/chats/{chatId}/messages', 'get', 200>>(base, 'GET', '/chats/' + chat.data.id + '/messages?limit=' + query.limit, undefined, token);
  const first = page.data[0];
  if (first === undefined) throw new Error('empty page');
  const replyTo: string | null = first.replyTo;
  return { login: user.login, title: chat.data.title, text: first.text + (replyTo ?? ''), total: page.meta.total };
}
`;

// Each line breaks the types in one way a careless client would.
const WRONG = `import type { paths } from './api.js';
type Created = paths['/session']['post']['responses'][201]['content']['application/json'];
type NewChat = paths['/chats']['post']['requestBody']['content']['application/json'];
type Page = paths['/chats/{chatId}/messages']['get']['responses'][200]['content']['application/json'];
export const a = (s: Created): number => s.token;
export const b: NewChat = { data: { titel: 'typo' } };
export const c = (p: Page): string => p.data[0]!.body;
export const d: NonNullable<paths['/chats']['get']['parameters']['query']> = { sort: 'nonsense' };
`;

function typeCheck(dir: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, '-p', '.'], { cwd: dir, timeout: 120_000 }, (_error, stdout) => resolve(stdout));
  });
}

test('openapi-typescript types from /openapi.json type-check a client that then works against the server', async (t) => {
  const server = await withServer(t);
  const res = await call(server, 'GET', '/openapi.json');
  const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(res.body)));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  writeFileSync(join(dir, 'client.ts'), CLIENT);
  writeFileSync(join(dir, 'wrong.ts'), WRONG);
  // One tsc run for both files: the client compiles cleanly, and each broken line of wrong.ts is refused.
  const errors = await typeCheck(dir);
  assert.deepEqual(errors.split('\n').filter((line) => /error TS/.test(line) && !line.startsWith('wrong.ts(')), [], 'the client type-checks');
  for (const line of [5, 6, 7, 8]) assert.match(errors, new RegExp(`wrong\\.ts\\(${line},`), `wrong.ts line ${line} is refused`);

  const client = await import(pathToFileURL(join(dir, 'client.ts')).href) as { run(base: string): Promise<unknown> };
  assert.deepEqual(await client.run(server.url), { login: 'typed', title: 'Typed', text: 'hello', total: 1 });
});
