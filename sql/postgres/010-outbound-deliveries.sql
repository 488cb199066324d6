-- The outbound delivery queue, as SQLite's migration 016 (docs/protocol.md §16.5, src/outbound/): one row per POST
-- to make, leased by one process at a time (FOR UPDATE SKIP LOCKED), in id order per target.
CREATE TABLE outbound_deliveries (
  id bigserial PRIMARY KEY,
  kind text COLLATE "C" NOT NULL,
  target_id text COLLATE "C" NOT NULL,
  event_id bigint,
  payload text NOT NULL,
  state text COLLATE "C" NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed', 'dropped')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at bigint NOT NULL,
  lease_owner text,
  lease_until bigint,
  created_at bigint NOT NULL,
  last_attempt_at bigint,
  last_status integer,
  last_error text,
  last_duration_ms integer
);
CREATE INDEX outbound_pending ON outbound_deliveries (kind, target_id, id) WHERE state = 'pending';
CREATE INDEX outbound_by_target ON outbound_deliveries (kind, target_id, id);
