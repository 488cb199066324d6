// Login (POST /session), the caller's session (GET), prolonging it (PATCH) and logout (DELETE): docs/api.md, Authentication and sessions.
import type { Reply, RequestContext } from '../context.ts';
import { checkPreconditions, etagOf } from '../../http/conditional.ts';
import { HttpError } from '../../http/http-error.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { rejectUnknownFields, requireString, type Body } from '../../parsers/body-fields.ts';
import { isoTime, publicSession } from '../../representations/public-fields.ts';
import { isForeignKeyViolation, type SessionRow } from '../../storage/store.ts';
import { LOGIN_RULE, PASSWORD_RULE } from '../users/validate.ts';
import { readOwnOriginBody } from '../own-origin-body.ts';
import { appendSessionsEnded } from './sessions-ended.ts';
import { accountDeactivated } from '../users/deactivation.ts';
import { newSession, sessionCookie } from './start-session.ts';
import { PATHS } from '../../paths.ts';
import { singleReply } from '../single-reply.ts';


export { sessionCookie } from './start-session.ts';

/** Login CSRF: a foreign page must not sign a browser in to an account of the attacker's choosing. */
function readCredentials(ctx: RequestContext): Promise<{ body: Body; form: boolean }> {
  return readOwnOriginBody(ctx, 'The login form must be posted from this server\'s own origin (Origin header)');
}

function badCredentials(): HttpError {
  // The same answer for an unknown login and a wrong password: nothing tells which logins exist.
  return new HttpError('ERR_BAD_CREDENTIALS', 'The login or the password is wrong', { headers: { 'WWW-Authenticate': 'Bearer realm="chat"' } });
}

export async function logIn(ctx: RequestContext): Promise<Reply> {
  const { storage, hasher, loginLimiter, config } = ctx.services;
  const { body, form } = await readCredentials(ctx);
  rejectUnknownFields(body, ['login', 'password']);
  const login = requireString(body, 'login', { min: 1, max: LOGIN_RULE.max * 4 });
  const password = requireString(body, 'password', { min: 1, max: PASSWORD_RULE.max });
  const address = ctx.clientAddress;
  // Checked (and counted) before any hashing, so a flood of guesses costs no scrypt work (docs/api.md, Brute force).
  await loginLimiter.admit(login, address, ctx.signal);
  const user = await storage.users.findUserByLogin(login);
  // Keyed by address: the hash budget serves addresses in turn, so one address's flood cannot starve another's login.
  const check = { signal: ctx.signal, key: address };
  let valid: boolean;
  try {
    // docs/protocol.md §16.2: a bot has no password; its login fails like an unknown one.
    valid = user && user.kind !== 'bot' ? await hasher.verify(password, user.passwordHash, check) : await hasher.verifyNothing(password, check);
  } catch (error) {
    // Refused by the budget (or its client left) before any hash: no password was checked, so nothing counts.
    await loginLimiter.withdraw(login, address);
    throw error;
  }
  if (!user || !valid) {
    ctx.services.metrics.loginFailures.inc();
    await loginLimiter.fail(login, address);
    if (form && ctx.mediaType === 'text/html') {
      // The login form again, with the error and the login as typed, instead of a bare error page.
      return {
        status: 401,
        headers: { 'WWW-Authenticate': 'Bearer realm="chat"' },
        representation: { kind: 'single', type: 'login-form', enveloped: false, data: { error: 'The login or the password is wrong', login } },
      };
    }
    throw badCredentials();
  }
  await loginLimiter.forgive(login, address);
  // Only once the password checked out, so that the answer tells no one without it that the account exists
  // or was deactivated (docs/protocol.md §2.2).
  if (user.deactivatedAt !== null) return deactivatedReply(form && ctx.mediaType === 'text/html', login);
  const { session, token } = newSession(ctx, user.id);
  const now = session.createdAt;
  try {
    await storage.transaction(async (tx) => {
      // Deactivated while the password was checked: no session (SQLite's writes take turns; on PostgreSQL a session
      // that slipped past is refused at every use, as authentication finds only active users' sessions). Erased
      // meanwhile: the login no longer exists.
      const still = await tx.users.findUserById(user.id);
      if (still === undefined) throw badCredentials();
      if (still.deactivatedAt !== null) throw accountDeactivated();
      await tx.sessions.deleteExpiredSessions(now);
      await tx.sessions.insertSession(session);
    });
  } catch (error) {
    // On PostgreSQL an erasure may commit between that read and the insert: the session has no user to belong to.
    if (isForeignKeyViolation(error)) throw badCredentials();
    throw error;
  }
  const cookie = sessionCookie(ctx, token, config.sessionMaxAge);
  if (form) {
    // The HTML login form: go on to the chat list (RFC 9110 §15.4.4, 303 See Other).
    return { status: 303, headers: { Location: ctx.href(PATHS.chats), 'Set-Cookie': cookie } };
  }
  return {
    status: 201,
    headers: { Location: ctx.href(PATHS.session), 'Set-Cookie': cookie, 'Cache-Control': 'no-store' },
    representation: {
      kind: 'single',
      type: 'session',
      enveloped: false,
      data: { token, userId: user.id, expiresAt: isoTime(session.expiresAt), createdAt: isoTime(session.createdAt) },
    },
  };
}

/** 403 ERR_ACCOUNT_DEACTIVATED; the HTML login form again with that message, for the form. */
function deactivatedReply(htmlForm: boolean, login: string): Reply {
  if (!htmlForm) throw accountDeactivated();
  return {
    status: 403,
    representation: { kind: 'single', type: 'login-form', enveloped: false, data: { error: 'This account has been deactivated by an admin', login } },
  };
}

async function currentSession(ctx: RequestContext): Promise<SessionRow> {
  const session = await ctx.services.storage.sessions.findSessionById(ctx.caller!.sessionId);
  if (!session) throw new HttpError('ERR_UNAUTHENTICATED', 'The session has ended', { headers: { 'WWW-Authenticate': 'Bearer realm="chat", error="invalid_token"' } });
  return session;
}

function sessionReply(ctx: RequestContext, session: SessionRow): Reply {
  const links = [{ rel: 'user', href: ctx.href(PATHS.user, { userId: session.userId }) }, { rel: 'chats', href: ctx.href(PATHS.chats) }];
  return singleReply('session', publicSession(session), links, { enveloped: false });
}

/** The word the login form shows after a sign-up form sent the browser to it (`?joined=1`, docs/html.md). */
const JOINED_NOTICE = 'Your account is ready: log in with the login and password you chose.';

/** Without a session, a browser asking for HTML gets the login form; anyone else gets 401. */
export async function getSession(ctx: RequestContext): Promise<Reply> {
  if (!ctx.caller) {
    if (ctx.mediaType === 'text/html') {
      const data = new URLSearchParams(ctx.rawQuery).get('joined') === '1' ? { notice: JOINED_NOTICE } : {};
      return { status: 200, representation: { kind: 'single', type: 'login-form', enveloped: false, data } };
    }
    throw new HttpError('ERR_UNAUTHENTICATED', 'This request needs a session: log in with POST /session', { headers: { 'WWW-Authenticate': 'Bearer realm="chat"' } });
  }
  return sessionReply(ctx, await currentSession(ctx));
}

/** Prolongs the session by the idle lifetime, never past the absolute limit. Body: none or {}. */
export async function prolongSession(ctx: RequestContext): Promise<Reply> {
  const { storage, clock, config } = ctx.services;
  const hasBody = ctx.req.headers['content-length'] !== undefined && ctx.req.headers['content-length'] !== '0'
    || ctx.req.headers['transfer-encoding'] !== undefined;
  if (hasBody) rejectUnknownFields(await readJsonBody(ctx, config.maxBodyBytes, ['application/json', 'application/merge-patch+json']), []);
  const session = await currentSession(ctx);
  // docs/protocol.md §7.7: If-Match that does not hold is a 412, and nothing changes.
  checkPreconditions(ctx.req.headers, etagOf(publicSession(session)));
  const expiresAt = Math.min(clock.now() + config.sessionTtl * 1000, session.maxExpiresAt);
  await storage.sessions.extendSession(session.id, expiresAt);
  return sessionReply(ctx, { ...session, expiresAt });
}

export async function logOut(ctx: RequestContext): Promise<Reply> {
  checkPreconditions(ctx.req.headers, etagOf(publicSession(await currentSession(ctx))));
  const { userId, sessionId } = ctx.caller!;
  // Its event streams end now, on every process: each one's hub reads the session.ended (sessions-ended.ts).
  // The event first: on PostgreSQL its append lock comes before the row's lock, as in the other writes that end
  // sessions (deactivation, erasure), so two of them never wait on each other.
  await ctx.services.storage.transaction(async (tx) => {
    await appendSessionsEnded(tx, userId, [sessionId], ctx.services.clock.now());
    await tx.sessions.deleteSession(sessionId);
  });
  return { status: 204, headers: { 'Set-Cookie': sessionCookie(ctx, '', 0) } };
}
