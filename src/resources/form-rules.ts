// The resources an HTML form may write (CONTRACT §7, HTML forms): each one's JSON shape, the page a success
// goes on to (303), and the page a broken rule shows again. A route missing here takes no form (415).
import type { FormShape } from '../http/form-post.ts';
import type { Reply, RequestContext } from './context.ts';
import { AVATAR_PATH, AVATARS_PATH } from './avatars/handlers.ts';
import { CHAT_PATH, CHATS_PATH, MEMBER_PATH, MEMBERS_PATH, MESSAGE_PATH, MESSAGES_PATH, READ_PATH, REACTION_PATH } from './chats/paths.ts';
import { USER_PATH } from './users/handlers.ts';

export interface FormRule {
  shape: FormShape;
  /** Where a success sends the browser (303 See Other); `back` is the form's `_back` field, when it named a page of this server. */
  next(ctx: RequestContext, reply: Reply, back: string | undefined): string;
  /** The page the form lives on, shown again with the error beside its field when a rule is broken. */
  page(ctx: RequestContext, back: string | undefined): string;
}

const BARE: FormShape = { envelope: false };
const ENVELOPED: FormShape = { envelope: true };

function dataId(reply: Reply): string {
  const rep = reply.representation;
  return rep?.kind === 'single' ? String(rep.data['id']) : '';
}

const chatParams = (ctx: RequestContext) => ({ chatId: ctx.params['chatId']! });
const messagesPage = (ctx: RequestContext) => ctx.href(MESSAGES_PATH, chatParams(ctx));
const messagePage = (ctx: RequestContext) => ctx.href(MESSAGE_PATH, { chatId: ctx.params['chatId']!, messageId: ctx.params['messageId']! });
const ownUserPage = (ctx: RequestContext) => ctx.href(USER_PATH, { userId: ctx.caller?.userId ?? ctx.params['userId'] ?? '' });
const avatarsPage = (ctx: RequestContext) => ctx.href(AVATARS_PATH, { userId: ctx.params['userId']! });
const membersPage = (ctx: RequestContext) => ctx.href(MEMBERS_PATH, chatParams(ctx));

/** Keyed by `METHOD pattern`, the route's own pattern. */
export const FORM_RULES = new Map<string, FormRule>([
  // Sign-up and log-in answer their own 303 (to the login form, to the chats) and their own form again.
  ['POST /users', { shape: BARE, next: (ctx) => ctx.href('/session'), page: (ctx) => ctx.href('/') }],
  ['POST /session', { shape: BARE, next: (ctx) => ctx.href(CHATS_PATH), page: (ctx) => ctx.href('/session') }],
  ['DELETE /session', { shape: BARE, next: (ctx) => ctx.href('/'), page: (ctx) => ctx.href('/session') }],
  // Change login or password; choose the current avatar (`avatar` empty: none).
  ['PATCH /users', { shape: { envelope: false, nullable: ['avatar'] }, next: (ctx, _reply, back) => back ?? ownUserPage(ctx), page: (ctx, back) => back ?? ownUserPage(ctx) }],
  [`PATCH ${USER_PATH}`, { shape: { envelope: false, nullable: ['avatar'] }, next: (ctx, _reply, back) => back ?? ownUserPage(ctx), page: (ctx, back) => back ?? ownUserPage(ctx) }],
  [`POST ${AVATARS_PATH}`, { shape: { envelope: false, files: true }, next: avatarsPage, page: avatarsPage }],
  [`DELETE ${AVATAR_PATH}`, { shape: BARE, next: avatarsPage, page: avatarsPage }],
  // A new chat opens on its (empty) history, where the next thing to do is to write.
  [`POST ${CHATS_PATH}`, {
    shape: { envelope: true, lists: ['members'] },
    next: (ctx, reply) => ctx.href(MESSAGES_PATH, { chatId: dataId(reply) }),
    page: (ctx) => ctx.href(CHATS_PATH),
  }],
  [`PATCH ${CHAT_PATH}`, { shape: { envelope: true, lists: ['members'] }, next: (ctx) => ctx.href(CHAT_PATH, chatParams(ctx)), page: (ctx) => ctx.href(CHAT_PATH, chatParams(ctx)) }],
  [`DELETE ${CHAT_PATH}`, { shape: BARE, next: (ctx) => ctx.href(CHATS_PATH), page: (ctx) => ctx.href(CHAT_PATH, chatParams(ctx)) }],
  [`PUT ${MEMBER_PATH}`, { shape: ENVELOPED, next: membersPage, page: membersPage }],
  // Leaving a chat leaves its pages too.
  [`DELETE ${MEMBER_PATH}`, {
    shape: BARE,
    next: (ctx) => (ctx.params['userId'] === ctx.caller?.userId ? ctx.href(CHATS_PATH) : membersPage(ctx)),
    page: membersPage,
  }],
  // A posted message is shown where it landed: the newest page of the history, scrolled to it.
  [`POST ${MESSAGES_PATH}`, { shape: ENVELOPED, next: (ctx, reply) => `${messagesPage(ctx)}#message-${dataId(reply)}`, page: (ctx, back) => back ?? messagesPage(ctx) }],
  [`DELETE ${MESSAGES_PATH}`, { shape: BARE, next: messagesPage, page: (ctx) => ctx.href(CHAT_PATH, chatParams(ctx)) }],
  [`PATCH ${MESSAGE_PATH}`, { shape: ENVELOPED, next: (ctx, _reply, back) => back ?? messagePage(ctx), page: (ctx, back) => back ?? messagePage(ctx) }],
  [`DELETE ${MESSAGE_PATH}`, { shape: BARE, next: messagesPage, page: (ctx, back) => back ?? messagePage(ctx) }],
  [`PUT ${REACTION_PATH}`, { shape: BARE, next: (ctx, _reply, back) => back ?? messagePage(ctx), page: (ctx, back) => back ?? messagePage(ctx) }],
  [`DELETE ${REACTION_PATH}`, { shape: BARE, next: (ctx, _reply, back) => back ?? messagePage(ctx), page: (ctx, back) => back ?? messagePage(ctx) }],
  // Mark read or unread: `lastReadId` empty marks the whole chat unread.
  [`PUT ${READ_PATH}`, { shape: { envelope: true, nullable: ['lastReadId'] }, next: (ctx, _reply, back) => back ?? messagesPage(ctx), page: (ctx, back) => back ?? messagesPage(ctx) }],
]);

export function formRuleOf(method: string, pattern: string): FormRule | undefined {
  return FORM_RULES.get(`${method} ${pattern}`);
}
