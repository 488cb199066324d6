// Bench only: what a simulated user of the capacity bench does (bench/capacity.md): Mattermost's load-test actions
// and their weights, each mapped onto this API. One function per action; each answers whether it went well.
import { Agent, request } from 'node:http';
import type { UserStream } from './capacity-stream.ts';

/** Mattermost's weights (per 12.139 actions), with the share of posts that are replies. */
export const ACTIONS = {
  switchChat: 6.52, scroll: 1.99, openDirect: 0.98, unreadCheck: 1, post: 1, viewThread: 0.28,
  reconnect: 0.14, react: 0.13, edit: 0.04, searchUsers: 0.032, searchPosts: 0.022, deleteOwn: 0.005,
} as const;
export type ActionName = keyof typeof ACTIONS;
export const ACTION_NAMES = Object.keys(ACTIONS) as ActionName[];
const REPLY_SHARE = 0.18;
const TOTAL_WEIGHT = ACTION_NAMES.reduce((sum, name) => sum + ACTIONS[name], 0);

export function pickAction(random = Math.random()): ActionName {
  let left = random * TOTAL_WEIGHT;
  for (const name of ACTION_NAMES) if ((left -= ACTIONS[name]) < 0) return name;
  return 'switchChat';
}

export interface Answer { status: number; body: string }

/** One pool of keep-alive connections per generator process for the actions; each stream has its own socket. */
export class Api {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256 });
  private readonly base: URL;

  constructor(base: URL) {
    this.base = base;
  }

  /**
   * One request. A request sent on a pooled connection the server closed as idle meanwhile (its keep-alive timeout)
   * fails with ECONNRESET before any answer: sent again once on a fresh connection, as Node's documentation advises
   * and as a proxy does; the time of both is counted.
   */
  async call(method: string, path: string, token: string, json?: unknown): Promise<Answer> {
    try {
      return await this.once(method, path, token, json);
    } catch (error) {
      if ((error as { reusedSocket?: boolean }).reusedSocket !== true || (error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
      return this.once(method, path, token, json);
    }
  }

  private once(method: string, path: string, token: string, json?: unknown): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const body = json === undefined ? undefined : JSON.stringify(json);
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const req = request(new URL(path, this.base), { method, headers, agent: this.agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => { text += chunk; });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      });
      req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** What one user knows between its actions. */
export interface UserState {
  id: string;
  token: string;
  teamIds: string[];
  groupChats: string[];
  current: string;
  /** The oldest message id the user has scrolled back to in the current chat. */
  oldestSeen: string | undefined;
  /** Message ids of the current chat's newest page (replies, threads and reactions pick from them). */
  recent: string[];
  /** The user's own messages, newest last (edits and deletes take the newest). */
  own: { chatId: string; id: string }[];
  stream: UserStream;
}

export interface ActionContext {
  api: Api;
  /** Called for every successful post: the message must reach each member of its chat. */
  posted(chatId: string, messageId: string, sentAt: number): void;
  /** Called for every own message deleted: a replay leaves it out (docs/events.md), so nobody has to get it. */
  deleted(messageId: string): void;
  now(): number;
}

/** Why actions failed this step, by status and error code (or socket error): the generator reports them with the step. */
export const failureReasons: Record<string, number> = {};
export function noteFailure(reason: string): void {
  failureReasons[reason] = (failureReasons[reason] ?? 0) + 1;
}

const ok = (answer: Answer, ...statuses: number[]): boolean => {
  if (statuses.includes(answer.status)) return true;
  const code = /"code":\s*"([A-Z_]+)"/.exec(answer.body)?.[1] ?? '';
  // A 4xx is the generator's own mistake or a rule it broke: its message says which.
  const message = answer.status < 500 ? ` (${/"message":\s*"([^"]{0,120})/.exec(answer.body)?.[1] ?? ''})` : '';
  noteFailure(`${answer.status} ${code}${message}`.trim());
  return false;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const idsOf = (body: string): string[] => (JSON.parse(body) as { data: { id: string }[] }).data.map((item) => item.id);

async function readNewest(ctx: ActionContext, user: UserState, chatId: string): Promise<boolean> {
  const page = await ctx.api.call('GET', `/chats/${chatId}/messages?limit=50&sort[id]=DESC`, user.token);
  if (!ok(page, 200)) return false;
  user.recent = idsOf(page.body);
  user.oldestSeen = user.recent[user.recent.length - 1];
  return true;
}

export const RUN: Record<ActionName, (ctx: ActionContext, user: UserState) => Promise<boolean>> = {
  // A chat switch: the newest page, then the read marker moved to its newest message.
  async switchChat(ctx, user) {
    user.current = pick(user.groupChats.filter((id) => id !== user.current));
    if (!(await readNewest(ctx, user, user.current))) return false;
    if (user.recent.length === 0) return true;
    return ok(await ctx.api.call('PUT', `/chats/${user.current}/read`, user.token, { data: { lastReadId: user.recent[0] } }), 200);
  },
  // A scroll: the keyset page before the oldest message seen.
  async scroll(ctx, user) {
    const before = user.oldestSeen === undefined ? '' : `&before=${user.oldestSeen}`;
    const page = await ctx.api.call('GET', `/chats/${user.current}/messages?limit=50${before}`, user.token);
    if (!ok(page, 200)) return false;
    const ids = idsOf(page.body);
    if (ids.length > 0) user.oldestSeen = ids[0];
    return true;
  },
  // Open a direct chat with a teammate (201 the first time, 200 after) and read it.
  async openDirect(ctx, user) {
    const other = pick(user.teamIds.filter((id) => id !== user.id));
    const chat = await ctx.api.call('POST', '/chats', user.token, { data: { kind: 'direct', members: [other] } });
    if (!ok(chat, 200, 201)) return false;
    const page = await ctx.api.call('GET', `/chats/${(JSON.parse(chat.body) as { data: { id: string } }).data.id}/messages?limit=50&sort[id]=DESC`, user.token);
    return ok(page, 200);
  },
  // The chat list with unread counts.
  async unreadCheck(ctx, user) {
    return ok(await ctx.api.call('GET', '/chats', user.token), 200);
  },
  async post(ctx, user) {
    const sentAt = ctx.now();
    const replyTo = Math.random() < REPLY_SHARE && user.recent.length > 0 ? pick(user.recent) : undefined;
    const chatId = user.current;
    const answer = await ctx.api.call('POST', `/chats/${chatId}/messages`, user.token, { data: { text: `bench post @${sentAt}`, ...(replyTo ? { replyTo } : {}) } });
    if (!ok(answer, 201)) return false;
    const id = (JSON.parse(answer.body) as { data: { id: string } }).data.id;
    user.own.push({ chatId, id });
    ctx.posted(chatId, id, sentAt);
    return true;
  },
  // A thread: the message and its replies.
  async viewThread(ctx, user) {
    if (user.recent.length === 0) return readNewest(ctx, user, user.current);
    const root = pick(user.recent);
    if (!ok(await ctx.api.call('GET', `/chats/${user.current}/messages/${root}`, user.token), 200, 404)) return false;
    return ok(await ctx.api.call('GET', `/chats/${user.current}/messages?replyTo=${root}&limit=50`, user.token), 200);
  },
  // The stream dropped and opened again with Last-Event-ID: done when its `ready` arrives.
  async reconnect(_ctx, user) {
    user.stream.close();
    await user.stream.open();
    return true;
  },
  async react(ctx, user) {
    if (user.recent.length === 0) return readNewest(ctx, user, user.current);
    const answer = await ctx.api.call('PUT', `/chats/${user.current}/messages/${pick(user.recent)}/reactions/%F0%9F%91%8D`, user.token);
    // 201 new, 204 when this user's 👍 was there already (docs/protocol.md); 404: the message was deleted meanwhile.
    return ok(answer, 201, 204, 404);
  },
  async edit(ctx, user) {
    const mine = user.own[user.own.length - 1];
    if (mine === undefined) return RUN.post(ctx, user);
    return ok(await ctx.api.call('PATCH', `/chats/${mine.chatId}/messages/${mine.id}`, user.token, { data: { text: `edited @${ctx.now()}` } }), 200);
  },
  async searchUsers(ctx, user) {
    return ok(await ctx.api.call('GET', `/search?q=cap${Math.floor(Math.random() * 100)}&type=user&limit=20`, user.token), 200);
  },
  async searchPosts(ctx, user) {
    return ok(await ctx.api.call('GET', `/search?q=${pick(['picnic', 'deploy', 'coffee', 'review'])}&type=message&limit=20`, user.token), 200);
  },
  async deleteOwn(ctx, user) {
    const mine = user.own.pop();
    if (mine === undefined) return RUN.unreadCheck(ctx, user);
    ctx.deleted(mine.id);
    return ok(await ctx.api.call('DELETE', `/chats/${mine.chatId}/messages/${mine.id}`, user.token), 204);
  },
};
