// Web Push's SQL that both backends share (docs/protocol.md §17): `?` placeholders, which the PostgreSQL face numbers.

export const VAPID_SELECT_SQL = 'SELECT public_key AS "publicKey", private_key AS "privateKey", created_at AS "createdAt" FROM push_keys WHERE id = 1';
/** The key of the first process to insert wins; every later insert, concurrent or not, does nothing. */
export const VAPID_INSERT_SQL = 'INSERT INTO push_keys (id, public_key, private_key, created_at) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO NOTHING';

const COLUMNS = 's.id, s.user_id AS "userId", s.session_id AS "sessionId", s.endpoint, s.p256dh, s.auth, s.page_hidden AS "pageHidden", s.created_at AS "createdAt"';
export const SUBSCRIPTION_SELECT_SQL = `SELECT ${COLUMNS} FROM push_subscriptions s`;
export const SUBSCRIPTION_INSERT_SQL = 'INSERT INTO push_subscriptions (id, user_id, session_id, endpoint, p256dh, auth, page_hidden, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';
export const SUBSCRIPTION_BY_ID_SQL = `${SUBSCRIPTION_SELECT_SQL} WHERE s.id = ?`;
export const SUBSCRIPTION_AT_SQL = `${SUBSCRIPTION_SELECT_SQL} WHERE s.endpoint = ?`;
export const SUBSCRIPTIONS_OF_USER_SQL = `${SUBSCRIPTION_SELECT_SQL} WHERE s.user_id = ? ORDER BY s.created_at, s.id`;
export const SUBSCRIPTIONS_IN_CHAT_SQL = `${SUBSCRIPTION_SELECT_SQL} JOIN chat_members m ON m.user_id = s.user_id WHERE m.chat_id = ? ORDER BY s.user_id, s.created_at, s.id`;
export const SUBSCRIPTION_DELETE_SQL = 'DELETE FROM push_subscriptions WHERE id = ?';
export const SUBSCRIPTIONS_OF_SESSION_DELETE_SQL = 'DELETE FROM push_subscriptions WHERE session_id = ? RETURNING id';
export const SUBSCRIPTIONS_OF_USER_DELETE_SQL = 'DELETE FROM push_subscriptions WHERE user_id = ? RETURNING id';
export const PAGE_HIDDEN_SQL = 'UPDATE push_subscriptions SET page_hidden = ? WHERE session_id = ?';
