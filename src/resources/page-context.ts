// What an HTML page shows beyond its resource: logins and avatars for ids, the chat around a message, who may be added.
import type { RequestContext } from './context.ts';
import { parseQuery } from '../parsers/query.ts';
import { publicAvatar, publicChatForCaller } from '../representations/public-fields.ts';
import type { PageContext, PageUser, Representation, Resource } from '../representations/representation.ts';
import type { UserRow } from '../storage/store.ts';
import { presenceOf, USER_FIELDS } from './users/handlers.ts';
import { isAdmin } from './users/roles.ts';
import { effectiveLevel } from './notifications/decide.ts';
import { PATHS } from '../paths.ts';
import { readSidebar, screenParameter, sidebarPeople } from './chat-screen-context.ts';

/** A page names at most this many distinct users; past it an id stays an id (a page holds at most 100 items). */
const MAX_NAMED_USERS = 500;
/** The owner's "Add a member" list: the first users by login who are not members yet. */
const CANDIDATES_QUERY = 'limit=100&sort=login&order=asc';
const USER_REFERENCES = ['authorId', 'ownerId', 'userId', 'createdBy', 'actorId'];
/** The administration page holds its people, invites and audit entries in lists of its one resource. */
const ADMIN_LISTS = ['people', 'invites', 'audit'];
/** How a page names the author of messages an erased account left (docs/html.md). */
const ERASED_LOGIN = 'deleted user';

/** Every user id a resource refers to: its author, owner, members, reacting users; itself for a user or member. */
function collectUserIds(type: string, item: Resource, into: Set<string>): void {
  for (const field of USER_REFERENCES) if (typeof item[field] === 'string') into.add(item[field]);
  if (Array.isArray(item['members'])) for (const id of item['members']) if (typeof id === 'string') into.add(id);
  // The mentioned members, so their @login is found and highlighted (docs/html.md).
  if (Array.isArray(item['mentions'])) for (const id of item['mentions']) if (typeof id === 'string') into.add(id);
  if (Array.isArray(item['reactions'])) {
    for (const reaction of item['reactions'] as Resource[]) {
      if (Array.isArray(reaction['userIds'])) for (const id of reaction['userIds']) if (typeof id === 'string') into.add(id);
    }
  }
  if ((type === 'user' || type === 'result') && typeof item['id'] === 'string' && typeof item['login'] === 'string') into.add(item['id']);
  if (type === 'admin') {
    for (const list of ADMIN_LISTS) {
      for (const entry of Array.isArray(item[list]) ? (item[list] as Resource[]) : []) collectUserIds(list === 'people' ? 'user' : list, entry, into);
    }
  }
}

async function pageUser(ctx: RequestContext, row: UserRow): Promise<PageUser> {
  const user: PageUser = { id: row.id, login: row.login, presence: presenceOf(ctx, row) };
  if (row.deactivatedAt !== null) user.deactivated = true;
  else if (row.role === 'admin') user.admin = true;
  if (row.avatarId !== null) {
    const avatar = await ctx.services.storage.avatars.findAvatarById(row.avatarId);
    if (avatar) user.avatar = publicAvatar(avatar, ctx.href(PATHS.avatarImage, { userId: row.id, avatarId: avatar.id }));
  }
  return user;
}

/** The caller's view of the chat in the path (the handler already found the caller a member), or undefined. */
async function chatOf(ctx: RequestContext): Promise<Resource | undefined> {
  const chatId = ctx.params['chatId'];
  if (chatId === undefined || !ctx.caller) return undefined;
  const { storage } = ctx.services;
  const chat = await storage.chats.findChat(chatId);
  if (!chat || !chat.members.includes(ctx.caller.userId)) return undefined;
  const marker = await storage.readMarkers.findMarker(chatId, ctx.caller.userId);
  return publicChatForCaller(chat, marker ?? { lastReadId: null, unreadCount: 0, mentionCount: 0 });
}

/**
 * The first language of Accept-Language (RFC 9110 §12.5.4) that Intl knows, for dates; a malformed tag
 * or `*` is skipped, and q-values other than 0 are not weighed: browsers list languages in order.
 */
export function preferredLocale(header: string | undefined): string | undefined {
  for (const element of (header ?? '').split(',').slice(0, 8)) {
    const [tag = '', ...parameters] = element.trim().split(';');
    if (tag === '' || tag === '*' || parameters.some((parameter) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(parameter))) continue;
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf([tag]);
      if (supported !== undefined) return supported;
    } catch {
      // RangeError: not a well-formed language tag.
    }
  }
  return undefined;
}

/**
 * The chats the search hits that are messages are in (the searcher is a member of each: search finds nothing else),
 * so the page names them; a direct chat's members join `ids`, as it is named by the other person's login.
 */
async function chatsOfHits(ctx: RequestContext, hits: readonly Resource[], ids: Set<string>): Promise<Record<string, Resource>> {
  const chats: Record<string, Resource> = {};
  for (const hit of hits) {
    const chatId = hit['type'] === 'message' && typeof hit['chatId'] === 'string' ? hit['chatId'] : undefined;
    if (chatId === undefined || chats[chatId] !== undefined) continue;
    const chat = await ctx.services.storage.chats.findChat(chatId);
    if (chat === undefined) continue;
    chats[chatId] = { id: chat.id, title: chat.title, kind: chat.kind, members: chat.members };
    if (chat.kind === 'direct') for (const member of chat.members) ids.add(member);
  }
  return chats;
}

/** Fills rep.page for an HTML answer; JSON and XML never see it. */
export async function decoratePage(ctx: RequestContext, rep: Representation): Promise<void> {
  if (rep.kind === 'problem') return;
  const { storage } = ctx.services;
  const items = rep.kind === 'single' ? [rep.data] : rep.data;
  const chat = await chatOf(ctx);
  const ids = new Set<string>();
  if (ctx.caller) ids.add(ctx.caller.userId);
  for (const item of items) collectUserIds(rep.type, item, ids);
  if (chat) collectUserIds('chat', chat, ids);
  const sidebar = await readSidebar(ctx, rep);
  sidebarPeople(sidebar, ctx.caller?.userId, ids);
  const chats = rep.type === 'result' && ctx.caller ? await chatsOfHits(ctx, items, ids) : undefined;
  const replied: Record<string, Resource> = {};
  if (chat && rep.type === 'message') {
    const shown = new Set(items.map((item) => item['id']));
    // The chat screen's reply being written (?reply=<id>, docs/html.md) quotes its message above the composer.
    for (const item of [...items, { replyTo: screenParameter(ctx, 'reply') }]) {
      const target = item['replyTo'];
      if (typeof target !== 'string' || shown.has(target) || replied[target]) continue;
      const message = await storage.messages.findMessageInChat(String(chat['id']), target);
      if (message) {
        replied[target] = { authorId: message.authorId, text: message.text };
        ids.add(message.authorId);
      }
    }
  }
  const users: Record<string, PageUser> = {};
  for (const id of [...ids].slice(0, MAX_NAMED_USERS)) {
    const row = await storage.users.findUserById(id);
    // Users are never deleted but by erasure: an id that names nobody wrote what an erased account left behind.
    users[id] = row ? await pageUser(ctx, row) : { id, login: ERASED_LOGIN, erased: true };
  }
  for (const [id, message] of Object.entries(replied)) if (users[String(message['authorId'])] === undefined) delete replied[id];
  const page: PageContext = {
    basePath: ctx.href('/').replace(/\/$/, ''),
    me: ctx.caller ? users[ctx.caller.userId] : undefined,
    users,
    chat,
    replied,
    locale: preferredLocale(ctx.req.headers['accept-language']),
    self: `${ctx.href('/').replace(/\/$/, '')}${ctx.path}${ctx.rawQuery ? `?${ctx.rawQuery}` : ''}`,
  };
  if (sidebar) page.sidebar = sidebar;
  if (chats !== undefined) page.chats = chats;
  if (ctx.caller && (await isAdmin(ctx))) page.admin = true;
  if (ctx.caller) page.mayInvite = page.admin === true || ctx.services.config.membersInvite;
  if (ctx.caller) page.pushSending = ctx.services.config.pushSubject !== '';
  if (rep.type === 'chat' && rep.kind === 'single' && chat && ctx.caller) {
    const member = await storage.chats.findMember(String(chat['id']), ctx.caller.userId);
    if (member) page.notificationLevel = effectiveLevel(chat['kind'] === 'direct' ? 'direct' : 'group', member.notificationLevel);
  }
  if (rep.type === 'member' && rep.kind === 'collection' && chat && chat['ownerId'] === ctx.caller?.userId && chat['kind'] !== 'direct') {
    const members = new Set(chat['members'] as string[]);
    const { rows } = await storage.collections.listUsers(parseQuery(CANDIDATES_QUERY, USER_FIELDS));
    // Shown by login and avatar, like the members above them (docs/html.md).
    page.candidates = [];
    for (const row of rows) if (!members.has(row.id)) page.candidates.push(await pageUser(ctx, row));
  }
  rep.page = page;
}
