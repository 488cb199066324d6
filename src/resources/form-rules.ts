// The resources an HTML form may write (docs/protocol.md §7.3, HTML forms): each one's JSON shape, the page a success
// goes on to (303), and the page a broken rule shows again. A route missing here takes no form (415).
import type { FormShape } from '../http/form-post.ts';
import type { Reply, RequestContext, Route } from './context.ts';
import { PATHS } from '../paths.ts';

export interface FormRule {
  shape: FormShape;
  /** Where a success sends the browser (303 See Other); `back` is the form's `_back` field, when it named a page of this server. */
  next(ctx: RequestContext, reply: Reply, back: string | undefined): string;
  /** The page the form lives on, shown again with the error beside its field when a rule is broken. */
  page(ctx: RequestContext, back: string | undefined): string;
  /**
   * A success is answered with its own page instead of a 303 (a new invite: its link exists only in that answer,
   * and a redirect would have to carry the secret in a URL).
   */
  showReply?: true;
}

const BARE: FormShape = { envelope: false };
const ENVELOPED: FormShape = { envelope: true };

function dataId(reply: Reply): string {
  const rep = reply.representation;
  return rep?.kind === 'single' ? String(rep.data['id']) : '';
}

const chatParams = (ctx: RequestContext) => ({ chatId: ctx.params['chatId']! });
const messagesPage = (ctx: RequestContext) => ctx.href(PATHS.messages, chatParams(ctx));
const messagePage = (ctx: RequestContext) => ctx.href(PATHS.message, { chatId: ctx.params['chatId']!, messageId: ctx.params['messageId']! });
const ownUserPage = (ctx: RequestContext) => ctx.href(PATHS.user, { userId: ctx.caller?.userId ?? ctx.params['userId'] ?? '' });
const avatarsPage = (ctx: RequestContext) => ctx.href(PATHS.avatars, { userId: ctx.params['userId']! });
const membersPage = (ctx: RequestContext) => ctx.href(PATHS.members, chatParams(ctx));
const tokensPage = (ctx: RequestContext) => ctx.href(PATHS.tokens, { userId: ctx.params['userId']! });
const webhooksPage = (ctx: RequestContext) => ctx.href(PATHS.webhooks, chatParams(ctx));
const sessionsPage = (ctx: RequestContext) => ctx.href(PATHS.userSessions, { userId: ctx.params['userId']! });

/** Keyed by `METHOD pattern`, the route's own pattern. */
export const FORM_RULES = new Map<string, FormRule>([
  // Sign-up and log-in answer their own 303 (to the login form, to the chats) and their own form again.
  [`POST ${PATHS.users}`, { shape: BARE, next: (ctx) => ctx.href(PATHS.session), page: (ctx) => ctx.href(PATHS.index) }],
  [`POST ${PATHS.session}`, { shape: BARE, next: (ctx) => ctx.href(PATHS.chats), page: (ctx) => ctx.href(PATHS.session) }],
  [`DELETE ${PATHS.session}`, { shape: BARE, next: (ctx) => ctx.href(PATHS.index), page: (ctx) => ctx.href(PATHS.session) }],
  // Change login or password; choose the current avatar (`avatar` empty: none).
  // The administration page's buttons send role or active (docs/html.md, Administration).
  [`PATCH ${PATHS.users}`, { shape: { envelope: false, nullable: ['avatar'], booleans: ['active'] }, next: (ctx, _reply, back) => back ?? ownUserPage(ctx), page: (ctx, back) => back ?? ownUserPage(ctx) }],
  [`PATCH ${PATHS.user}`, { shape: { envelope: false, nullable: ['avatar'], booleans: ['active'] }, next: (ctx, _reply, back) => back ?? ownUserPage(ctx), page: (ctx, back) => back ?? ownUserPage(ctx) }],
  // The sessions page: end one (your own current one logs you out), or every other; deleting your account leaves for the landing page.
  [`DELETE ${PATHS.userSession}`, {
    shape: BARE,
    next: (ctx, _reply, back) => (ctx.params['sessionId'] === ctx.caller?.sessionId ? ctx.href(PATHS.session) : back ?? sessionsPage(ctx)),
    page: (ctx, back) => back ?? sessionsPage(ctx),
  }],
  [`DELETE ${PATHS.userSessions}`, { shape: BARE, next: (ctx, _reply, back) => back ?? sessionsPage(ctx), page: (ctx, back) => back ?? sessionsPage(ctx) }],
  [`DELETE ${PATHS.user}`, { shape: { envelope: false, booleans: ['keepMessages'] }, next: (ctx) => ctx.href(PATHS.index), page: (ctx) => ctx.href(PATHS.user, { userId: ctx.params['userId']! }) }],
  [`POST ${PATHS.avatars}`, { shape: { envelope: false, files: true }, next: avatarsPage, page: avatarsPage }],
  [`DELETE ${PATHS.avatar}`, { shape: BARE, next: avatarsPage, page: avatarsPage }],
  // A new chat opens on its (empty) history, where the next thing to do is to write.
  [`POST ${PATHS.chats}`, {
    shape: { envelope: true, lists: ['members'] },
    next: (ctx, reply) => ctx.href(PATHS.messages, { chatId: dataId(reply) }),
    page: (ctx) => ctx.href(PATHS.chats),
  }],
  // Rename on the chat's page; "Make owner" on its members page comes back there (`_back`).
  [`PATCH ${PATHS.chat}`, {
    shape: { envelope: true, lists: ['members'] },
    next: (ctx, _reply, back) => back ?? ctx.href(PATHS.chat, chatParams(ctx)),
    page: (ctx, back) => back ?? ctx.href(PATHS.chat, chatParams(ctx)),
  }],
  [`DELETE ${PATHS.chat}`, { shape: BARE, next: (ctx) => ctx.href(PATHS.chats), page: (ctx) => ctx.href(PATHS.chat, chatParams(ctx)) }],
  [`PUT ${PATHS.member}`, { shape: ENVELOPED, next: membersPage, page: membersPage }],
  // Leaving a chat leaves its pages too.
  [`DELETE ${PATHS.member}`, {
    shape: BARE,
    next: (ctx) => (ctx.params['userId'] === ctx.caller?.userId ? ctx.href(PATHS.chats) : membersPage(ctx)),
    page: membersPage,
  }],
  // A posted message is shown where it landed: the newest page of the history, scrolled to it. With files, the
  // form is multipart, read by the handler itself (docs/protocol.md §15.2).
  [`POST ${PATHS.messages}`, { shape: { envelope: true, files: true }, next: (ctx, reply) => `${messagesPage(ctx)}#m-${dataId(reply)}`, page: (ctx, back) => back ?? messagesPage(ctx) }],
  [`DELETE ${PATHS.messages}`, { shape: BARE, next: messagesPage, page: (ctx) => ctx.href(PATHS.chat, chatParams(ctx)) }],
  [`PATCH ${PATHS.message}`, { shape: ENVELOPED, next: (ctx, _reply, back) => back ?? messagePage(ctx), page: (ctx, back) => back ?? messagePage(ctx) }],
  [`DELETE ${PATHS.message}`, { shape: BARE, next: messagesPage, page: (ctx, back) => back ?? messagePage(ctx) }],
  [`PUT ${PATHS.reaction}`, { shape: BARE, next: (ctx, _reply, back) => back ?? messagePage(ctx), page: (ctx, back) => back ?? messagePage(ctx) }],
  // React with any emoji typed into a field (docs/html.md, the chat screen): POST …/reactions with `emoji`.
  [`POST ${PATHS.reactions}`, { shape: BARE, next: (ctx, _reply, back) => back ?? messagePage(ctx), page: (ctx, back) => back ?? messagePage(ctx) }],
  [`DELETE ${PATHS.reaction}`, { shape: BARE, next: (ctx, _reply, back) => back ?? messagePage(ctx), page: (ctx, back) => back ?? messagePage(ctx) }],
  // The notification level, chosen on the chat's page (docs/protocol.md §14.3).
  // Send me a test notification (docs/html.md): back to your page.
  [`POST ${PATHS.pushTest}`, { shape: BARE, next: (ctx, _reply, back) => back ?? ownUserPage(ctx), page: (ctx, back) => back ?? ownUserPage(ctx) }],
  [`PUT ${PATHS.notifications}`, { shape: ENVELOPED, next: (ctx, _reply, back) => back ?? ctx.href(PATHS.chat, chatParams(ctx)), page: (ctx, back) => back ?? ctx.href(PATHS.chat, chatParams(ctx)) }],
  // Mark read or unread: `lastReadId` empty marks the whole chat unread.
  [`PUT ${PATHS.read}`, { shape: { envelope: true, nullable: ['lastReadId'] }, next: (ctx, _reply, back) => back ?? messagesPage(ctx), page: (ctx, back) => back ?? messagesPage(ctx) }],
  // Invites (docs/html.md, Administration): a new one is shown with its link, once; a revoked one leaves the list as it was.
  [`POST ${PATHS.invites}`, { shape: ENVELOPED, showReply: true, next: (ctx, _reply, back) => back ?? ctx.href(PATHS.invites), page: (ctx, back) => back ?? ctx.href(PATHS.invites) }],
  [`DELETE ${PATHS.invite}`, { shape: BARE, next: (ctx, _reply, back) => back ?? ctx.href(PATHS.invites), page: (ctx, back) => back ?? ctx.href(PATHS.invites) }],
  // Tokens and webhooks (docs/html.md, Integrations): a new one is shown with its secret, once; a new bot goes to
  // its tokens page, where its owner makes its first token.
  [`POST ${PATHS.tokens}`, { shape: ENVELOPED, showReply: true, next: (ctx, _reply, back) => back ?? tokensPage(ctx), page: (ctx, back) => back ?? tokensPage(ctx) }],
  [`DELETE ${PATHS.token}`, { shape: BARE, next: (ctx, _reply, back) => back ?? tokensPage(ctx), page: (ctx, back) => back ?? tokensPage(ctx) }],
  [`POST ${PATHS.bots}`, { shape: ENVELOPED, next: (ctx, reply) => ctx.href(PATHS.tokens, { userId: dataId(reply) }), page: (ctx) => ctx.href(PATHS.tokens, { userId: ctx.caller?.userId ?? '' }) }],
  [`POST ${PATHS.webhooks}`, { shape: ENVELOPED, showReply: true, next: (ctx, _reply, back) => back ?? webhooksPage(ctx), page: (ctx, back) => back ?? webhooksPage(ctx) }],
  [`DELETE ${PATHS.webhook}`, { shape: BARE, next: (ctx, _reply, back) => back ?? webhooksPage(ctx), page: (ctx, back) => back ?? webhooksPage(ctx) }],
]);

export function formRuleOf(method: string, pattern: string): FormRule | undefined {
  return FORM_RULES.get(`${method} ${pattern}`);
}

/**
 * Checked where the route table is built: each rule's `METHOD pattern` must be a route of the table, so a
 * renamed or removed route cannot leave a rule behind that no form can reach. Throws naming the rule.
 */
export function checkFormRules(routes: readonly Pick<Route, 'method' | 'pattern'>[], rules: ReadonlyMap<string, FormRule> = FORM_RULES): void {
  for (const name of rules.keys()) {
    const [method, pattern, ...rest] = name.split(' ');
    const methods = routes.filter((route) => route.pattern === pattern).map((route) => route.method);
    if (rest.length > 0 || pattern === undefined || methods.length === 0) {
      throw new Error(`form rule "${name}" names no route of the route table`);
    }
    if (!methods.includes(method as Route['method'])) {
      throw new Error(`form rule "${name}": the route table answers ${pattern} with ${methods.join(', ')} only`);
    }
  }
}
