// `chat-server admin promote|demote <login>`: changes a role on the database directly, for recovery (an admin who
// left, a lost password): no server needs to run, no session is needed. Audited as the server's own act.
import { ConfigError, parseConfig } from './config.ts';
import { appendAuditEntry } from './resources/audit/record.ts';
import { openStore } from './storage/open-store.ts';
import { DatabaseOpenError, type Role } from './storage/store.ts';

const USAGE = 'usage: chat-server admin promote|demote <login> [--db <path or postgres:// URL>]';
const VERBS: Record<string, Role> = { promote: 'admin', demote: 'member' };

/** Runs the subcommand; answers the exit code: 0 done (or nothing to change), 2 bad arguments, an unknown login or the last admin. */
export async function runAdminCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const fail = (message: string): number => {
    process.stderr.write(`chat-server admin: ${message}\n`);
    return 2;
  };
  const [verb, login] = argv;
  const role = verb === undefined ? undefined : VERBS[verb];
  if (role === undefined || login === undefined || login.startsWith('--')) return fail(USAGE);
  let db: string;
  try {
    db = parseConfig(argv.slice(2), env).db;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return fail(error.message);
  }
  let store;
  try {
    store = await openStore({ db });
  } catch (error) {
    if (error instanceof DatabaseOpenError) return fail(error.message);
    throw error;
  }
  try {
    const outcome = await store.transaction(async (tx) => {
      const user = await tx.users.findUserByLogin(login);
      if (user === undefined) return `no user has the login ${JSON.stringify(login)}`;
      if (user.role === role) return undefined;
      if (role === 'member' && user.deactivatedAt === null && (await tx.users.countActiveAdmins()) <= 1) {
        return `${user.login} is the last active admin: promote another user first`;
      }
      const now = Date.now();
      await tx.users.updateUser({ ...user, role, updatedAt: now });
      await appendAuditEntry(tx, now, {
        action: role === 'admin' ? 'user.promote' : 'user.demote', targetType: 'user', targetId: user.id, detail: { role, by: 'chat-server admin' },
      });
      return undefined;
    });
    if (outcome !== undefined) return fail(outcome);
    process.stdout.write(`chat-server admin: ${login} is ${role === 'admin' ? 'an admin' : 'a member'}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
