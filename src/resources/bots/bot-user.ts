// A bot user (docs/protocol.md §16.2): a user of kind 'bot', with no password (an empty hash, which no password
// verifies, and log-in refuses bots before it looks), owned by whoever made it.
import { newId } from '../../storage/ids.ts';
import type { Tx, UserRow } from '../../storage/store.ts';

/** Inserts the bot in the caller's transaction; rejects with a unique StoreConstraintError when the login is taken. */
export async function insertBotUser(tx: Tx, login: string, ownerId: string, now: number): Promise<UserRow> {
  const row: UserRow = {
    id: newId(now), login, passwordHash: '', avatarId: null, role: 'member', deactivatedAt: null, lastSeenAt: null, createdAt: now, updatedAt: now,
    kind: 'bot', ownerId,
  };
  await tx.users.insertUser(row);
  await tx.integrations.markBot(row.id, ownerId);
  return row;
}
