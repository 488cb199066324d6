// Registration, reading and updating users (docs/protocol.md §2.1, §3.1).
import type { Reply, RequestContext } from '../context.ts';
import { checkPreconditions, etagOf } from '../../http/conditional.ts';
import { HttpError, httpErrorOf, invalidField } from '../../http/http-error.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { fieldsOf, type CollectionSpec } from '../../parsers/query.ts';
import { publicUser } from '../../representations/public-fields.ts';
import { newId } from '../../storage/ids.ts';
import { isUniqueViolation, type Role, type Tx, type UserRow } from '../../storage/store.ts';
import type { Body } from '../../parsers/body-fields.ts';
import { collectionReply } from '../collection.ts';
import { OWN_ORIGIN_BODY_TYPES, readOwnOriginBody } from '../own-origin-body.ts';
import { indexReply } from '../service/index-page.ts';
import { joinPageReply } from '../invites/join-page.ts';
import { changesOwnProfile, validateRegistration, validateUserChanges } from './validate.ts';
import { checkSignUp } from './sign-up-rules.ts';
import { requireAdmin } from './roles.ts';
import { appendUserUpdated, changeActive, endSessionsOf } from './deactivation.ts';
import { appendSessionsEnded } from '../session/sessions-ended.ts';
import { authenticate } from '../session/authenticate.ts';
import { newSession, sessionCookie } from '../session/start-session.ts';
import { recordAudit } from '../audit/record.ts';
import { PATHS } from '../../paths.ts';
import { singleReply } from '../single-reply.ts';
import type { Presence } from '../../events/presence.ts';


export const USER_FIELDS: CollectionSpec = {
  fields: fieldsOf({ id: 'id', login: 'string', avatar: 'id', role: 'string', kind: 'string', createdAt: 'timestamp', updatedAt: 'timestamp' }),
};

/** Computed as the answer is made (docs/protocol.md §14.6): never kept, never stored with the user. */
export function presenceOf(ctx: RequestContext, row: UserRow): Presence {
  // A deactivated account cannot sign in: whatever it did a moment ago, it is gone.
  return row.deactivatedAt !== null ? 'offline' : ctx.services.presence.presenceOf(row.id, row.lastSeenAt);
}

function userReply(ctx: RequestContext, row: UserRow, status = 200, headers: Record<string, string> = {}): Reply {
  return singleReply('user', publicUser(row, presenceOf(ctx, row)), [
    { rel: 'avatars', href: ctx.href(PATHS.avatars, { userId: row.id }) },
    { rel: 'collection', href: ctx.href(PATHS.users) },
  ], { status, headers, enveloped: false });
}

function loginTaken(login: string): HttpError {
  return new HttpError('ERR_LOGIN_TAKEN', `The login "${login}" is already taken`, { errors: [{ field: 'login', message: 'is already taken' }] });
}

export const REGISTRATION_TYPES = OWN_ORIGIN_BODY_TYPES;

/**
 * JSON from clients; the landing page's sign-up form sends the same fields form-encoded (docs/protocol.md §7.3,
 * HTML forms), and like the login form only from this server's own origin.
 */
function readRegistration(ctx: RequestContext): Promise<{ body: Body; form: boolean }> {
  return readOwnOriginBody(ctx, 'The sign-up form must be posted from this server\'s own origin (Origin header)');
}

/**
 * docs/protocol.md §11.1: the address's registration quota is taken before the body is read or any hash runs,
 * so a flood from one address costs nothing past its quota; an attempt that creates no account
 * (a bad body, a taken login, a busy hasher) gives its place back. The sign-up form gets a 303 into the chats,
 * signed in, or the landing page again with the message beside its field and the contract's status.
 */
export async function registerUser(ctx: RequestContext): Promise<Reply> {
  const { registerLimit } = ctx.services;
  const decision = registerLimit.enabled ? await registerLimit.take(ctx.clientAddress) : undefined;
  if (decision) Object.assign(ctx.responseHeaders, decision.headers);
  let read: { body: Body; form: boolean } | undefined;
  try {
    read = await readRegistration(ctx);
    const created = await createUser(ctx, read.body);
    return read.form ? await signInFromForm(ctx, created.row) : created.reply;
  } catch (error) {
    await decision?.undo();
    const problem = httpErrorOf(error);
    if (read?.form && ctx.mediaType === 'text/html' && problem?.errors !== undefined) {
      const login = typeof read.body['login'] === 'string' ? read.body['login'] : undefined;
      const state = { login, errors: problem.errors, status: problem.status, title: problem.title };
      // The join page's form carries its code: that page again, else the landing page's form.
      const code = read.body['inviteCode'];
      return typeof code === 'string' ? joinPageReply(ctx, code, problem.status, state) : indexReply(ctx, problem.status, state);
    }
    throw error;
  }
}

/**
 * The sign-up form signs the new person in (docs/html.md, Sign-up from a page): a session and its cookie, then on
 * to their (empty) chats, RFC 9110 §15.4.4 303 See Other. A browser already signed in (an admin making an account
 * for someone) stays who it is and goes to the new account's page. The JSON API's registration does not log in
 * (docs/protocol.md §2.1).
 */
async function signInFromForm(ctx: RequestContext, row: UserRow): Promise<Reply> {
  const signedIn = ctx.caller ?? await authenticate(ctx.req, ctx.services, 'optional', ctx.kept);
  if (signedIn !== undefined) return { status: 303, headers: { Location: ctx.href(PATHS.user, { userId: row.id }) } };
  const { session, token } = newSession(ctx, row.id);
  await ctx.services.storage.sessions.insertSession(session);
  return { status: 303, headers: { Location: ctx.href(PATHS.chats), 'Set-Cookie': sessionCookie(ctx, token, ctx.services.config.sessionMaxAge) } };
}

async function createUser(ctx: RequestContext, body: Body): Promise<{ row: UserRow; reply: Reply }> {
  const { storage, hasher, clock } = ctx.services;
  const { login, password, inviteCode } = validateRegistration(body);
  // Refuse a taken login before spending a hash on it; the unique index still decides races.
  if (await storage.users.findUserByLogin(login)) throw loginTaken(login);
  // The first account of an empty database needs no invite and is an admin (docs/protocol.md §13).
  const first = await storage.users.hasNoUsers();
  const grant = first ? undefined : await checkSignUp(ctx, inviteCode);
  // Registrations hash within their own budget, so a flood of sign-ups cannot starve sign-in.
  const passwordHash = await hasher.hash(password, { priority: 'background', signal: ctx.signal });
  const now = clock.now();
  const row: UserRow = {
    id: newId(now), login, passwordHash, avatarId: null, role: 'member', deactivatedAt: null, lastSeenAt: null, createdAt: now, updatedAt: now, kind: 'user', ownerId: null,
  };
  try {
    if (!first || !(await storage.transaction((tx) => tx.users.insertFirstUser({ ...row, role: 'admin' })))) {
      // Another sign-up took the first place meanwhile: this one is an ordinary sign-up after all.
      const granted = grant ?? await checkSignUp(ctx, inviteCode);
      row.role = granted.role;
      await storage.transaction(async (tx) => {
        await tx.users.insertUser(row);
        await granted.redeem?.(tx, row);
      });
    } else {
      row.role = 'admin';
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw loginTaken(login);
    throw error;
  }
  return { row, reply: userReply(ctx, row, 201, { Location: ctx.href(PATHS.user, { userId: row.id }) }) };
}

export function listUsers(ctx: RequestContext): Promise<Reply> {
  return collectionReply<UserRow>(ctx, {
    type: 'user',
    spec: USER_FIELDS,
    list: (query) => ctx.services.storage.collections.listUsers(query),
    toPublic: (row) => publicUser(row, presenceOf(ctx, row)),
    itemHref: (user) => ctx.href(PATHS.user, { userId: String(user['id']) }),
  });
}

async function findUserOr404(ctx: RequestContext, userId: string): Promise<UserRow> {
  const row = await ctx.services.storage.users.findUserById(userId);
  if (!row) throw new HttpError('ERR_NOT_FOUND', `No user ${userId}`);
  return row;
}

export async function getUser(ctx: RequestContext): Promise<Reply> {
  return userReply(ctx, await findUserOr404(ctx, ctx.params['userId']!));
}

/**
 * PATCH /users and PATCH /users/{id}: the caller changes their own login, password and avatar; an admin changes
 * anyone's role (docs/protocol.md §13). Anything else is 403.
 */
export async function updateUser(ctx: RequestContext): Promise<Reply> {
  const { storage, hasher, clock, config } = ctx.services;
  const caller = ctx.caller!;
  const targetId = ctx.params['userId'] ?? caller.userId;
  const current = await findUserOr404(ctx, targetId);
  const self = targetId === caller.userId;
  const body = await readJsonBody(ctx, config.maxBodyBytes, ['application/json', 'application/merge-patch+json']);
  const changes = validateUserChanges(body);
  const byAdmin = changes.role !== undefined || changes.active !== undefined;
  if (!self && (changesOwnProfile(changes) || !byAdmin)) throw new HttpError('ERR_FORBIDDEN', 'You may change only your own user');
  if (byAdmin) await requireAdmin(ctx);
  if (body['id'] !== undefined && body['id'] !== targetId) throw invalidField('id', 'must equal the id in the path');
  checkUserPreconditions(ctx, current);
  const next: UserRow = { ...current };
  if (changes.password !== undefined) {
    // docs/protocol.md §16.1: an access token never changes its owner's password.
    if (ctx.caller!.token !== undefined) throw new HttpError('ERR_TOKEN_NOT_ALLOWED', 'An access token cannot change a password: log in');
    if (!(await hasher.verify(changes.currentPassword!, current.passwordHash, { signal: ctx.signal, key: ctx.clientAddress }))) {
      throw new HttpError('ERR_WRONG_PASSWORD', 'currentPassword is wrong', { errors: [{ field: 'currentPassword', message: 'is wrong' }] });
    }
    next.passwordHash = await hasher.hash(changes.password, { priority: 'interactive', signal: ctx.signal, key: ctx.clientAddress });
  }
  if (changes.login !== undefined) next.login = changes.login;
  if (changes.avatar !== undefined) {
    if (changes.avatar !== null && (await storage.avatars.findAvatarById(changes.avatar))?.userId !== targetId) {
      throw invalidField('avatar', 'must be the id of one of your avatars, or null');
    }
    next.avatarId = changes.avatar;
  }
  if (changes.role !== undefined) next.role = changes.role;
  next.updatedAt = clock.now();
  const activeChanged = changes.active !== undefined && changes.active !== (current.deactivatedAt === null);
  try {
    await storage.transaction(async (tx) => {
      if (current.role !== next.role) await changeRole(tx, ctx, current, next.role);
      if (activeChanged) await changeActive(tx, ctx, current, next, changes.active!);
      await tx.users.updateUser(next);
      // Those who share a chat with the user hear of what an admin changed (docs/protocol.md §9.1).
      if (current.role !== next.role || activeChanged) await appendUserUpdated(tx, next);
      if (activeChanged && !changes.active) await endSessionsOf(tx, next);
      // A new password ends every other session of the user (docs/protocol.md §3.1), and their streams at once.
      if (changes.password !== undefined) await appendSessionsEnded(tx, targetId, await tx.sessions.deleteOtherSessions(targetId, caller.sessionId), next.updatedAt);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw loginTaken(next.login);
    throw error;
  }
  return userReply(ctx, next);
}

const PRESENCES: readonly Presence[] = ['online', 'away', 'offline'];

/**
 * If-Match compares what a PATCH changes: the tag the client holds was made with the presence of that moment, which
 * may have moved since without the user changing. A tag of the stored fields with any presence matches.
 */
function checkUserPreconditions(ctx: RequestContext, current: UserRow): void {
  const now = presenceOf(ctx, current);
  if (ctx.req.headers['if-match'] === undefined) return checkPreconditions(ctx.req.headers, etagOf(publicUser(current, now)));
  let refusal: unknown;
  for (const presence of [now, ...PRESENCES.filter((other) => other !== now)]) {
    try {
      return checkPreconditions(ctx.req.headers, etagOf(publicUser(current, presence)));
    } catch (error) {
      refusal ??= error;
    }
  }
  throw refusal;
}

/** A demotion keeps at least one active admin (409 otherwise); either change is audited. */
async function changeRole(tx: Tx, ctx: RequestContext, current: UserRow, role: Role): Promise<void> {
  if (current.role === 'admin' && current.deactivatedAt === null && (await tx.users.countActiveAdmins()) <= 1) {
    throw new HttpError('ERR_LAST_ADMIN', 'The last active admin cannot be demoted: promote another user first',
      { errors: [{ field: 'role', message: 'would leave no active admin' }] });
  }
  await recordAudit(tx, ctx, { action: role === 'admin' ? 'user.promote' : 'user.demote', targetType: 'user', targetId: current.id, detail: { role } });
}
