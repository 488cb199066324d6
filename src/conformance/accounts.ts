// Signs up the kit's own users on any server (docs/conformance.md, What a server needs): open sign-up, an invite code,
// invites made by an admin or by a user the kit already has, or an admin's token on a closed server.
import { PATHS } from '../paths.ts';
import type { Reply } from './http-client.ts';
import { CheckFailure } from './expect.ts';

export interface KitUser {
  name: string;
  id: string;
  login: string;
  password: string;
  token: string;
  role: string | undefined;
  /** The answers to the kit's own sign-up and login, which the checks of §2.1 and §2.2 read. */
  signUp: Reply;
  login201: Reply;
}

export interface AccountHost {
  runId: string;
  invite: string | undefined;
  adminToken: string | undefined;
  call(method: string, path: string, options?: { token?: string; json?: unknown }): Promise<Reply>;
  /** Set once a sign-up was refused with ERR_REGISTRATION_CLOSED: the server runs closed (§13.2). */
  closed?: boolean;
  /** A user the kit already has, who may make invites (members may, unless the server says otherwise). */
  inviter(): string | undefined;
}


/** A fresh invite code for one account, made with the admin token or a kit user's, or undefined when none can be made. */
async function makeInvite(host: AccountHost): Promise<string | undefined> {
  for (const token of [host.adminToken, host.inviter()]) {
    if (token === undefined) continue;
    const made = await host.call('POST', PATHS.invites, { token, json: { data: { maxUses: 1 } } });
    const code = made.json?.data?.code ?? made.json?.code;
    if (made.status === 201 && typeof code === 'string') return code;
  }
  return undefined;
}

/** Answers the sign-up, trying what the server asks for in turn: nothing, the invite given, a new invite, the admin's token. */
export async function signUpBody(host: AccountHost, body: { login: string; password: string }): Promise<Reply> {
  let reply = await host.call('POST', PATHS.users, { json: host.invite === undefined ? body : { ...body, inviteCode: host.invite } });
  const code = (): unknown => reply.json?.code;
  if (reply.status === 403 && typeof code() === 'string' && String(code()).startsWith('ERR_INVITE')) {
    const invite = await makeInvite(host);
    if (invite !== undefined) reply = await host.call('POST', PATHS.users, { json: { ...body, inviteCode: invite } });
  }
  // Closed: an admin's own request creates the account (the kit's first user is one on an empty server).
  const admin = host.adminToken ?? host.inviter();
  if (reply.status === 403 && code() === 'ERR_REGISTRATION_CLOSED') host.closed = true;
  if (reply.status === 403 && code() === 'ERR_REGISTRATION_CLOSED' && admin !== undefined) {
    reply = await host.call('POST', PATHS.users, { token: admin, json: body });
  }
  return reply;
}

/**
 * Signs up `name` with a login unique to this run and logs in once: every check reuses the token, so a run hashes few
 * passwords whatever the server's scrypt cost. `loginAs` lets bob log in with his login in capitals (§2.2).
 */
export async function createAccount(host: AccountHost, name: string, loginAs: (login: string) => string = (login) => login): Promise<KitUser> {
  const login = `${host.runId}-${name}`;
  const password = `conformance ${host.runId} ${name} password`;
  const signUp = await signUpBody(host, { login, password });
  if (signUp.status !== 201) {
    const why = signUp.json?.code === undefined ? '' : ` ${signUp.json.code}`;
    if (signUp.status === 429) throw new CheckFailure(`cannot sign up ${login}: POST ${PATHS.users} answered 429, the registration rate of this address is spent (--register-rate; docs/conformance.md)`);
    throw new CheckFailure(`cannot sign up ${login}: POST ${PATHS.users} answered ${signUp.status}${why}; ` +
      'an invite-only server needs --invite CODE or --admin-token TOKEN, a closed one --admin-token (docs/conformance.md)');
  }
  const login201 = await host.call('POST', PATHS.session, { json: { login: loginAs(login), password } });
  if (login201.status !== 201 || typeof login201.json?.token !== 'string') {
    throw new CheckFailure(`cannot log in ${login}: POST ${PATHS.session} answered ${login201.status}`);
  }
  return { name, id: signUp.json.id, login, password, token: login201.json.token, role: signUp.json.role, signUp, login201 };
}
