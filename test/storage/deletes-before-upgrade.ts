// An event log as a server before the purge rule wrote it (no subject_id yet): the migration that adds the rule
// (SQLite 010, PostgreSQL 004) must remove what its deletes would have removed (docs/events.md).

/** [type, chatId, data]; ids are 1, 2, 3… in this order. */
export const EVENTS_BEFORE_UPGRADE: readonly (readonly [string, string, Record<string, unknown>])[] = [
  ['chat.created', 'c1', { id: 'c1', members: ['u'] }],
  ['message.created', 'c1', { id: 'm1', text: 'deleted before the upgrade' }],
  ['message.created', 'c1', { id: 'm2', text: 'kept' }],
  ['reaction.added', 'c1', { messageId: 'm1', emoji: '+1', userId: 'u' }],
  ['message.updated', 'c1', { id: 'm1', text: 'edited, then deleted' }],
  ['message.deleted', 'c1', { id: 'm1' }],
  ['chat.created', 'c2', { id: 'c2', members: ['u'] }],
  ['message.created', 'c2', { id: 'm3', text: 'cleared before the upgrade' }],
  ['messages.cleared', 'c2', {}],
  ['message.created', 'c2', { id: 'm4', text: 'after the clear' }],
  ['chat.created', 'c3', { id: 'c3', members: ['u'] }],
  ['member.added', 'c3', { userId: 'v' }],
  ['message.created', 'c3', { id: 'm5', text: 'in a chat deleted before the upgrade' }],
  ['chat.deleted', 'c3', { id: 'c3' }],
  ['chat.created', 'c3', { id: 'c3', members: ['v'] }],
];

/** What stays: the deleting events themselves and everything no delete reached. */
export const KEPT_AFTER_UPGRADE = [1, 3, 6, 7, 9, 10, 14, 15];

/** One INSERT of the whole log, in SQL both engines take. */
export function insertEventsSql(): string {
  const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
  const rows = EVENTS_BEFORE_UPGRADE.map(([type, chatId, data], index) =>
    `(${index + 1}, ${quote(type)}, ${quote(chatId)}, ${index + 1}, ${quote(JSON.stringify(data))})`);
  return `INSERT INTO events (id, type, chat_id, created_at, data) VALUES ${rows.join(', ')}`;
}
