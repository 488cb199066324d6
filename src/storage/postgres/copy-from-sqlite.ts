// Copies a whole SQLite database into an empty PostgreSQL one (chat-server migrate): every table, in one
// transaction, with the kept counts and summaries as they are and the id sequences moved past the copied ids.
import type { Db } from '../sqlite/database.ts';
import { DatabaseOpenError } from '../store.ts';
import type { Queryable } from './driver.ts';

/** A table copied as it is: its columns, their PostgreSQL types (for the unnest() of a batch), the source order. */
interface TableCopy {
  table: string;
  columns: readonly (readonly [name: string, type: string])[];
  /** SQLite SELECT of the same columns, in an order that satisfies the foreign keys. */
  select: string;
  /** Rows per INSERT when not BATCH: attachment chunks are large. */
  batch?: number;
}

// Users first without their current avatar (avatars reference users), set once the avatars are in.
const TABLES: readonly TableCopy[] = [
  {
    table: 'users',
    columns: [['id', 'text'], ['login', 'text'], ['password_hash', 'text'], ['role', 'text'], ['deactivated_at', 'bigint'], ['last_seen_at', 'bigint'], ['created_at', 'bigint'], ['updated_at', 'bigint'], ['erased_at', 'bigint'],
      ['kind', 'text'], ['owner_id', 'text']],
    // A bot comes after its owner (ids and seq grow together), so owner_id finds its row.
    select: 'SELECT id, login, password_hash, role, deactivated_at, last_seen_at, created_at, updated_at, erased_at, kind, owner_id FROM users ORDER BY seq',
  },
  {
    table: 'sessions',
    columns: [['id', 'text'], ['token_hash', 'bytea'], ['user_id', 'text'], ['created_at', 'bigint'], ['expires_at', 'bigint'], ['max_expires_at', 'bigint'], ['last_used_at', 'bigint'], ['user_agent', 'text'], ['address', 'text']],
    select: 'SELECT id, token_hash, user_id, created_at, expires_at, max_expires_at, last_used_at, user_agent, address FROM sessions',
  },
  {
    table: 'invites',
    columns: [['id', 'text'], ['code_hash', 'bytea'], ['created_by', 'text'], ['role', 'text'], ['max_uses', 'integer'], ['uses', 'integer'], ['expires_at', 'bigint'], ['created_at', 'bigint'], ['revoked_at', 'bigint']],
    select: 'SELECT id, code_hash, created_by, role, max_uses, uses, expires_at, created_at, revoked_at FROM invites',
  },
  {
    table: 'avatars',
    columns: [['id', 'text'], ['user_id', 'text'], ['content_type', 'text'], ['image_width', 'integer'], ['image_height', 'integer'], ['x', 'double precision'], ['y', 'double precision'], ['width', 'double precision'], ['height', 'double precision'], ['bytes', 'bytea'], ['etag', 'text'], ['created_at', 'bigint']],
    select: 'SELECT id, user_id, content_type, image_width, image_height, x, y, width, height, bytes, etag, created_at FROM avatars',
  },
  {
    // A direct chat's title is '' in both (docs/protocol.md §14.1).
    table: 'chats',
    columns: [['id', 'text'], ['kind', 'text'], ['title', 'text'], ['owner_id', 'text'], ['direct_key', 'text'], ['created_at', 'bigint'], ['updated_at', 'bigint']],
    select: 'SELECT id, kind, title, owner_id, direct_key, created_at, updated_at FROM chats ORDER BY seq',
  },
  { table: 'chat_stats', columns: [['chat_id', 'text'], ['message_count', 'bigint']], select: 'SELECT chat_id, message_count FROM chat_stats' },
  {
    table: 'chat_members',
    columns: [['chat_id', 'text'], ['user_id', 'text'], ['added_at', 'bigint'], ['last_read_id', 'text'], ['unread_count', 'integer'], ['mention_count', 'integer'], ['notification_level', 'text']],
    select: 'SELECT chat_id, user_id, added_at, last_read_id, unread_count, mention_count, notification_level FROM chat_members',
  },
  {
    // In insertion order: a reply always points back in it, so its replyTo is already there.
    table: 'messages',
    columns: [['seq', 'bigint'], ['id', 'text'], ['chat_id', 'text'], ['author_id', 'text'], ['text', 'text'], ['reply_to', 'text'], ['created_at', 'bigint'], ['updated_at', 'bigint'], ['edited_at', 'bigint'], ['reactions', 'text'], ['mentions', 'text'], ['attachments', 'text'], ['attachment_names', 'text']],
    select: 'SELECT seq, id, chat_id, author_id, text, reply_to, created_at, updated_at, edited_at, reactions, mentions, attachments, attachment_names FROM messages ORDER BY seq',
  },
  // Files of messages (docs/protocol.md §15): contents with their kept reference counts, their chunks a few at a time.
  {
    table: 'attachment_blobs',
    columns: [['id', 'text'], ['sha256', 'text'], ['size', 'bigint'], ['chunk_bytes', 'integer'], ['refs', 'integer'], ['created_at', 'bigint']],
    select: 'SELECT id, sha256, size, chunk_bytes, refs, created_at FROM attachment_blobs',
  },
  { table: 'attachment_chunks', columns: [['blob_id', 'text'], ['n', 'integer'], ['data', 'bytea']], select: 'SELECT blob_id, n, data FROM attachment_chunks', batch: 8 },
  {
    table: 'attachments',
    columns: [['seq', 'bigint'], ['id', 'text'], ['chat_id', 'text'], ['uploader_id', 'text'], ['message_id', 'text'], ['position', 'integer'], ['blob_id', 'text'], ['name', 'text'],
      ['content_type', 'text'], ['size', 'bigint'], ['sha256', 'text'], ['width', 'integer'], ['height', 'integer'], ['created_at', 'bigint']],
    select: 'SELECT seq, id, chat_id, uploader_id, message_id, position, blob_id, name, content_type, size, sha256, width, height, created_at FROM attachments ORDER BY seq',
  },
  { table: 'message_mentions', columns: [['user_id', 'text'], ['message_id', 'text'], ['chat_id', 'text']], select: 'SELECT user_id, message_id, chat_id FROM message_mentions' },
  { table: 'reactions', columns: [['seq', 'bigint'], ['message_id', 'text'], ['emoji', 'text'], ['user_id', 'text'], ['created_at', 'bigint']], select: 'SELECT seq, message_id, emoji, user_id, created_at FROM reactions ORDER BY seq' },
  { table: 'message_revisions', columns: [['message_id', 'text'], ['n', 'integer'], ['text', 'text'], ['created_at', 'bigint']], select: 'SELECT message_id, n, text, created_at FROM message_revisions' },
  {
    table: 'events',
    columns: [['id', 'bigint'], ['type', 'text'], ['chat_id', 'text'], ['only_user_id', 'text'], ['also_user_ids', 'text'], ['subject_id', 'text'], ['created_at', 'bigint'], ['data', 'text']],
    select: 'SELECT id, type, chat_id, only_user_id, also_user_ids, subject_id, created_at, data FROM events ORDER BY id',
  },
  {
    table: 'audit_log',
    columns: [['seq', 'bigint'], ['id', 'text'], ['at', 'bigint'], ['actor_id', 'text'], ['action', 'text'], ['target_type', 'text'], ['target_id', 'text'], ['detail', 'text']],
    select: 'SELECT seq, id, at, actor_id, action, target_type, target_id, detail FROM audit_log ORDER BY seq',
  },
  {
    table: 'access_tokens',
    columns: [['id', 'text'], ['user_id', 'text'], ['name', 'text'], ['token_hash', 'bytea'], ['scopes', 'text'], ['created_at', 'bigint'], ['last_used_at', 'bigint'], ['expires_at', 'bigint']],
    select: 'SELECT id, user_id, name, token_hash, scopes, created_at, last_used_at, expires_at FROM access_tokens',
  },
  {
    table: 'webhooks',
    columns: [['id', 'text'], ['chat_id', 'text'], ['bot_id', 'text'], ['created_by', 'text'], ['name', 'text'], ['direction', 'text'], ['secret_hash', 'bytea'],
      ['url', 'text'], ['signing_secret', 'text'], ['events', 'text'], ['trigger_on', 'text'], ['created_at', 'bigint'], ['disabled_at', 'bigint']],
    select: 'SELECT id, chat_id, bot_id, created_by, name, direction, secret_hash, url, signing_secret, events, trigger_on, created_at, disabled_at FROM webhooks',
  },
  {
    // The outbound queue with its leases as they stand: a lease of the old server runs out and the new one takes it.
    table: 'outbound_deliveries',
    columns: [['id', 'bigint'], ['kind', 'text'], ['target_id', 'text'], ['event_id', 'bigint'], ['payload', 'text'], ['state', 'text'], ['attempts', 'integer'],
      ['next_attempt_at', 'bigint'], ['lease_owner', 'text'], ['lease_until', 'bigint'], ['created_at', 'bigint'], ['last_attempt_at', 'bigint'],
      ['last_status', 'integer'], ['last_error', 'text'], ['last_duration_ms', 'integer']],
    select: 'SELECT id, kind, target_id, event_id, payload, state, attempts, next_attempt_at, lease_owner, lease_until, created_at, last_attempt_at,'
      + ' last_status, last_error, last_duration_ms FROM outbound_deliveries ORDER BY id',
  },
  {
    table: 'outbound_attempts',
    columns: [['delivery_id', 'bigint'], ['attempt', 'integer'], ['at', 'bigint'], ['status', 'integer'], ['error', 'text'], ['duration_ms', 'integer']],
    select: 'SELECT delivery_id, attempt, at, status, error, duration_ms FROM outbound_attempts ORDER BY delivery_id, attempt',
  },
  {
    // Web Push (docs/protocol.md §17): the VAPID key (browsers' subscriptions were made with it) and the subscriptions.
    table: 'push_keys',
    columns: [['id', 'integer'], ['public_key', 'text'], ['private_key', 'text'], ['created_at', 'bigint']],
    select: 'SELECT id, public_key, private_key, created_at FROM push_keys',
  },
  {
    table: 'push_subscriptions',
    columns: [['id', 'text'], ['user_id', 'text'], ['session_id', 'text'], ['endpoint', 'text'], ['p256dh', 'text'], ['auth', 'text'], ['page_hidden', 'integer'], ['created_at', 'bigint']],
    select: 'SELECT id, user_id, session_id, endpoint, p256dh, auth, page_hidden, created_at FROM push_subscriptions ORDER BY id',
  },
];

/**
 * The triggers that keep counts, markers and summaries: the copy brings those values along, so they stay off; and
 * those that move a chat's versions (017-chat-versions.sql), which its copied chat_stats row starts afresh, since
 * nothing is kept yet: a row each, a million messages would be a million updates of their chats' rows.
 */
const KEEPING_TRIGGERS = [
  ['chats', 'chats_after_insert'], ['chat_members', 'chat_members_before_insert'], ['messages', 'messages_after_insert'],
  ['reactions', 'reactions_after_change'], ['messages', 'mentions_after_message_insert'], ['attachments', 'attachments_count_refs'],
  ['messages', 'chat_version_after_message'], ['chat_members', 'chat_version_after_member'],
] as const;

const BATCH = 1000;

export interface CopyReport {
  /** Rows copied per table. */
  rows: Record<string, number>;
}

/** PostgreSQL's array text for bytea wants hex: pg writes a Buffer inside an array as \\x... itself. */
async function insertBatch(target: Queryable, copy: TableCopy, rows: Record<string, unknown>[]): Promise<void> {
  const names = copy.columns.map(([name]) => name);
  const arrays = copy.columns.map(([name]) => rows.map((row) => row[name] ?? null));
  const unnest = copy.columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
  await target.query(`INSERT INTO ${copy.table} (${names.join(', ')}) SELECT * FROM unnest(${unnest})`, arrays);
}

/** Refuses a target that already holds users, chats or events: the copy would mix two histories. */
async function checkEmpty(target: Queryable): Promise<void> {
  const { rows } = await target.query<{ n: number }>('SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM chats) + (SELECT count(*) FROM events) AS n');
  if (rows[0]!.n > 0) throw new DatabaseOpenError('the PostgreSQL database is not empty: migrate copies into a new, empty database only');
}

/** Copies source (a migrated SQLite database) into target (one connection to a migrated PostgreSQL database). */
export async function copySqliteToPostgres(source: Db, target: Queryable): Promise<CopyReport> {
  const report: CopyReport = { rows: {} };
  await target.query('BEGIN');
  try {
    await checkEmpty(target);
    for (const [table, trigger] of KEEPING_TRIGGERS) await target.query(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
    // One read transaction on the source: the copy is one consistent moment even if a server still writes.
    source.exec('BEGIN');
    try {
      for (const copy of TABLES) {
        let batch: Record<string, unknown>[] = [];
        let count = 0;
        for (const row of source.prepare(copy.select).iterate() as IterableIterator<Record<string, unknown>>) {
          batch.push(row);
          if (batch.length === (copy.batch ?? BATCH)) {
            await insertBatch(target, copy, batch);
            count += batch.length;
            batch = [];
          }
        }
        if (batch.length > 0) await insertBatch(target, copy, batch);
        report.rows[copy.table] = count + batch.length;
      }
      const current = source.prepare('SELECT id, avatar_id FROM users WHERE avatar_id IS NOT NULL').all() as { id: string; avatar_id: string }[];
      for (const user of current) await target.query('UPDATE users SET avatar_id = $1 WHERE id = $2', [user.avatar_id, user.id]);
      const pruned = (source.prepare('SELECT pruned_through FROM event_log WHERE only_row = 1').get() as { pruned_through: number } | undefined)?.pruned_through ?? 0;
      const newest = (source.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'").get() as { seq: number } | undefined)?.seq ?? 0;
      await target.query('UPDATE event_log SET pruned_through = $1 WHERE only_row = 1', [pruned]);
      await moveSequence(target, 'events', 'id', Math.max(newest, pruned));
      await moveSequence(target, 'messages', 'seq', 0);
      await moveSequence(target, 'reactions', 'seq', 0);
      await moveSequence(target, 'audit_log', 'seq', 0);
      await moveSequence(target, 'outbound_deliveries', 'id', 0);
      await moveSequence(target, 'attachments', 'seq', 0);
    } finally {
      source.exec('COMMIT');
    }
    for (const [table, trigger] of KEEPING_TRIGGERS) await target.query(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
    await target.query('COMMIT');
    return report;
  } catch (error) {
    await target.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** The next id given is above every copied one (and above `atLeast`, the highest the source ever gave). */
async function moveSequence(target: Queryable, table: string, column: string, atLeast: number): Promise<void> {
  await target.query(`SELECT setval(pg_get_serial_sequence('${table}', '${column}'), greatest((SELECT max(${column}) FROM ${table}), $1, 1), greatest((SELECT max(${column}) FROM ${table}), $1) > 0)`, [atLeast]);
}
