-- What a delete removes from the event log, as SQLite's migration 010 (docs/events.md, "What a replay leaves
-- out"): subject_id is the message a message.* or reaction.* event is about, so a delete finds the earlier events
-- it removes by index, in its own transaction.
ALTER TABLE events ADD COLUMN subject_id text COLLATE "C";

UPDATE events SET subject_id = CASE
  WHEN type IN ('message.created', 'message.updated', 'message.deleted') THEN data::json ->> 'id'
  WHEN type IN ('reaction.added', 'reaction.removed') THEN data::json ->> 'messageId'
END
WHERE type IN ('message.created', 'message.updated', 'message.deleted', 'reaction.added', 'reaction.removed');

-- One index serves both purges, so a posted message pays for one more index entry, not two: a message's
-- events by (chat_id, subject_id), a chat's events by its chat_id prefix (they are all of the chat's events
-- before the deleting one, or most of them). Within a chat, new message ids sort last: appends stay cheap.
CREATE INDEX events_by_chat_subject ON events (chat_id, subject_id);

-- Deletes made before this migration remove now what they would have removed then: the same rule, once over the
-- whole log (every deleting event, and the earlier events of its chat or its message found by index).
DELETE FROM events WHERE id IN (
  SELECT earlier.id FROM events AS deleting JOIN events AS earlier ON earlier.chat_id = deleting.chat_id AND earlier.id < deleting.id
  WHERE deleting.type = 'chat.deleted'
  UNION
  SELECT earlier.id FROM events AS deleting JOIN events AS earlier ON earlier.chat_id = deleting.chat_id AND earlier.id < deleting.id
  WHERE deleting.type = 'messages.cleared'
    AND earlier.type IN ('message.created', 'message.updated', 'message.deleted', 'messages.cleared', 'reaction.added', 'reaction.removed')
  UNION
  SELECT earlier.id FROM events AS deleting JOIN events AS earlier ON earlier.subject_id = deleting.subject_id AND earlier.id < deleting.id
  WHERE deleting.type = 'message.deleted' AND earlier.chat_id = deleting.chat_id
    AND earlier.type IN ('message.created', 'message.updated', 'message.deleted', 'messages.cleared', 'reaction.added', 'reaction.removed')
);
