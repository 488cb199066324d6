// Shared steps of the chat tests: a few logged-in users, a chat among them, messages in it.
import assert from 'node:assert/strict';
import type { RunningServer } from '../../src/index.ts';
import { call, registerAndLogIn, type LoggedIn, type TestResponse } from './client.ts';

export interface Chat {
  id: string;
  kind: 'group' | 'direct';
  title: string;
  ownerId: string;
  members: string[];
  createdAt: string;
  updatedAt: string;
  lastReadId: string | null;
  unreadCount: number;
  mentionCount: number;
}

export interface Message {
  id: string;
  chatId: string;
  authorId: string;
  text: string;
  replyTo: string | null;
  createdAt: string;
  updatedAt: string;
  editedAt: string | null;
  reactions: { emoji: string; count: number; userIds: string[] }[];
  mentions: string[];
}

/**
 * The owner (alice), a member (bob) and an outsider (carol), none of them an admin: on an empty database the server's
 * first account is registered before them (the admin, docs/protocol.md §13.1), so that none of them can moderate.
 */
export async function threeUsers(server: RunningServer): Promise<{ alice: LoggedIn; bob: LoggedIn; carol: LoggedIn }> {
  if ((await server.app.services.storage.users.hasNoUsers())) await registerAndLogIn(server);
  const [alice, bob, carol] = await Promise.all([registerAndLogIn(server), registerAndLogIn(server), registerAndLogIn(server)]);
  return { alice: alice!, bob: bob!, carol: carol! };
}

export async function createChat(server: RunningServer, owner: LoggedIn, data: Record<string, unknown>): Promise<Chat> {
  const res = await call(server, 'POST', '/chats', { token: owner.token, json: { data } });
  assert.equal(res.status, 201, res.text);
  return res.body.data as Chat;
}

export async function postMessage(server: RunningServer, author: LoggedIn, chatId: string, data: Record<string, unknown>): Promise<Message> {
  const res = await call(server, 'POST', `/chats/${chatId}/messages`, { token: author.token, json: { data } });
  assert.equal(res.status, 201, res.text);
  return res.body.data as Message;
}

export async function readChat(server: RunningServer, user: LoggedIn, chatId: string): Promise<TestResponse> {
  return call(server, 'GET', `/chats/${chatId}`, { token: user.token });
}

/** A problem body with the parts that name the request (the ids in its detail) made generic. */
export function withoutIds(body: Record<string, unknown>, ...ids: string[]): Record<string, unknown> {
  let detail = String(body['detail']);
  for (const id of ids) detail = detail.replaceAll(id, '<id>');
  return { ...body, detail };
}

/** Asserts a 400 whose errors name exactly this field. */
export function assertFieldError(res: TestResponse, field: string, what = field): void {
  assert.equal(res.status, 400, `${what}: ${res.text}`);
  assert.equal(res.headers['content-type'], 'application/problem+json', what);
  assert.deepEqual(res.body.errors.map((error: { field: string }) => error.field), [field], what);
}
