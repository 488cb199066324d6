// Which "sessions" still hold, a stream's or a push subscription's: a login session or a personal access token
// (docs/protocol.md §16.1), each with when it expires as the store holds it now (Infinity: a token without expiry).
import type { Repositories } from '../../storage/store.ts';

export async function findLiveSessions(storage: Pick<Repositories, 'sessions' | 'integrations'>, ids: readonly string[], now: number): Promise<Map<string, number>> {
  const [sessions, tokens] = await Promise.all([storage.sessions.findLiveSessions(ids, now), storage.integrations.findLiveAccessTokens(ids, now)]);
  return new Map([...sessions, ...tokens]);
}
