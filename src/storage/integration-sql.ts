// The SQL of bots, access tokens and webhooks that both backends share (docs/protocol.md §16): the same text runs
// on SQLite and PostgreSQL (`?` placeholders, quoted aliases).
import type { SqlColumns } from './query-sql.ts';

const TOKEN_COLUMNS = 't.id, t.user_id AS "userId", t.name, t.token_hash AS "tokenHash", t.scopes, t.created_at AS "createdAt",'
  + ' t.last_used_at AS "lastUsedAt", t.expires_at AS "expiresAt"';
export const TOKEN_SELECT = `SELECT ${TOKEN_COLUMNS} FROM access_tokens t`;
/** The list carries no hash (PostgreSQL's page travels as JSON, which has no bytes; nobody lists a hash). */
export const TOKEN_LIST_SELECT = 'SELECT t.id, t.user_id AS "userId", t.name, t.scopes, t.created_at AS "createdAt", t.last_used_at AS "lastUsedAt",'
  + ' t.expires_at AS "expiresAt" FROM access_tokens t';
export const TOKEN_LIST_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: { id: 't.id', name: 't.name', scopes: 't.scopes', createdAt: 't.created_at', lastUsedAt: 't.last_used_at', expiresAt: 't.expires_at' },
};

const WEBHOOK_COLUMNS = 'w.id, w.chat_id AS "chatId", w.bot_id AS "botId", w.created_by AS "createdBy", w.name, w.direction, w.secret_hash AS "secretHash",'
  + ' w.url, w.signing_secret AS "signingSecret", w.events, w.trigger_on AS "trigger", w.created_at AS "createdAt", w.disabled_at AS "disabledAt"';
export const WEBHOOK_SELECT = `SELECT ${WEBHOOK_COLUMNS} FROM webhooks w`;
export const WEBHOOK_LIST_SELECT = 'SELECT w.id, w.chat_id AS "chatId", w.bot_id AS "botId", w.created_by AS "createdBy", w.name, w.direction,'
  + ' w.url, w.events, w.trigger_on AS "trigger", w.created_at AS "createdAt", w.disabled_at AS "disabledAt" FROM webhooks w';
export const WEBHOOK_LIST_COLUMNS: SqlColumns = {
  idField: 'id',
  columns: { id: 'w.id', name: 'w.name', direction: 'w.direction', createdAt: 'w.created_at', disabledAt: 'w.disabled_at' },
};

export const INTEGRATION_SQL = {
  markBot: 'UPDATE users SET kind = \'bot\', owner_id = ? WHERE id = ?',
  insertToken: 'INSERT INTO access_tokens (id, user_id, name, token_hash, scopes, created_at, last_used_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  tokenById: `${TOKEN_SELECT} WHERE t.id = ?`,
  tokenByHash: `${TOKEN_SELECT} WHERE t.token_hash = ?`,
  touchToken: 'UPDATE access_tokens SET last_used_at = ? WHERE id = ?',
  deleteToken: 'DELETE FROM access_tokens WHERE id = ?',
  tokenIdsOf: 'SELECT id FROM access_tokens WHERE user_id = ? ORDER BY id',
  deleteTokensOf: 'DELETE FROM access_tokens WHERE user_id = ? RETURNING id',
  insertWebhook: 'INSERT INTO webhooks (id, chat_id, bot_id, created_by, name, direction, secret_hash, url, signing_secret, events, trigger_on, created_at, disabled_at)'
    + ' VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  webhookById: `${WEBHOOK_SELECT} WHERE w.id = ?`,
  webhookBySecret: `${WEBHOOK_SELECT} WHERE w.secret_hash = ?`,
  disableWebhook: 'UPDATE webhooks SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL',
  deleteWebhook: 'DELETE FROM webhooks WHERE id = ?',
  // The export's (docs/protocol.md §3.6): never a hash or a secret, not even read.
  tokensOfUser: `${TOKEN_LIST_SELECT} WHERE t.user_id = ? ORDER BY t.id`,
  botIdsOfOwner: 'SELECT id FROM users WHERE owner_id = ? AND kind = \'bot\' ORDER BY id',
  webhooksOfOwnedChats: `${WEBHOOK_LIST_SELECT} JOIN chats c ON c.id = w.chat_id WHERE c.owner_id = ? OR w.created_by = ? ORDER BY w.chat_id, w.id`,
} as const;

export function tokenValues(token: { id: string; userId: string; name: string; tokenHash: Buffer; scopes: string; createdAt: number; lastUsedAt: number | null; expiresAt: number | null }): unknown[] {
  return [token.id, token.userId, token.name, token.tokenHash, token.scopes, token.createdAt, token.lastUsedAt, token.expiresAt];
}

export function webhookValues(w: import('./integration-repository.ts').WebhookRow): unknown[] {
  return [w.id, w.chatId, w.botId, w.createdBy, w.name, w.direction, w.secretHash, w.url, w.signingSecret, w.events, w.trigger, w.createdAt, w.disabledAt];
}
