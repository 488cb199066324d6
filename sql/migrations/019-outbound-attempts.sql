-- Every attempt of an outbound delivery (docs/protocol.md §16.4): its time, the reply's status, how long it took and
-- why it failed, numbered from 1 as the delivery's attempts column counts them. Kept with their delivery (deleting
-- the delivery or its target deletes them), at most the newest 40 of one delivery (the retry schedule makes about 35
-- in 24 h), written in the commit that records the attempt on the delivery.
CREATE TABLE outbound_attempts (
  delivery_id INTEGER NOT NULL REFERENCES outbound_deliveries(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  at INTEGER NOT NULL,
  status INTEGER,
  error TEXT,
  duration_ms INTEGER,
  PRIMARY KEY (delivery_id, attempt)
) STRICT, WITHOUT ROWID;

-- Deliveries attempted before this table: their last attempt is all that was kept.
INSERT INTO outbound_attempts (delivery_id, attempt, at, status, error, duration_ms)
  SELECT id, attempts, last_attempt_at, last_status, last_error, last_duration_ms FROM outbound_deliveries
  WHERE attempts > 0 AND last_attempt_at IS NOT NULL;

-- Given-up deliveries, which the start of the delivery loop looks for (a webhook whose giving up a crash cut short).
CREATE INDEX outbound_failed ON outbound_deliveries (kind, target_id) WHERE state = 'failed';
