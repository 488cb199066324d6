-- The outbound delivery queue (docs/protocol.md §16.5, src/outbound/): one row per POST to make, of any kind
-- ('webhook', later 'push'), queued in the transaction of the event that causes it. A process leases the first
-- pending row of a target (lease_owner, lease_until), sends it, and records the attempt; a lease that runs out
-- (a crash, a SIGKILL) lets another process take the row again. Rows stay after they end (state delivered,
-- failed or dropped) as the deliveries' record, until their target goes.
CREATE TABLE outbound_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  target_id TEXT NOT NULL,
  -- The event id that caused it, if any, and what to send (JSON text: each kind reads its own).
  event_id INTEGER,
  payload TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed', 'dropped')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until INTEGER,
  created_at INTEGER NOT NULL,
  last_attempt_at INTEGER,
  last_status INTEGER,
  last_error TEXT,
  last_duration_ms INTEGER
) STRICT;

-- The head of each target's queue, and a target's record newest first.
CREATE INDEX outbound_pending ON outbound_deliveries (kind, target_id, id) WHERE state = 'pending';
CREATE INDEX outbound_by_target ON outbound_deliveries (kind, target_id, id);
