// Row -> public fields: the one place that picks what a client sees of each stored row.
import type { SessionRow } from '../storage/session-store.ts';
import type { UserRow } from '../storage/user-store.ts';

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** Never the password hash. */
export function publicUser(row: UserRow): Record<string, unknown> {
  return { id: row.id, login: row.login, avatar: row.avatarId, createdAt: isoTime(row.createdAt), updatedAt: isoTime(row.updatedAt) };
}

/** Never the token or its hash: the token is shown once, in the answer to POST /session. */
export function publicSession(row: SessionRow): Record<string, unknown> {
  return { userId: row.userId, expiresAt: isoTime(row.expiresAt), createdAt: isoTime(row.createdAt) };
}
