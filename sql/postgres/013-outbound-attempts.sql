-- Every attempt of an outbound delivery, as SQLite's migration 019 (docs/protocol.md §16.4).
CREATE TABLE outbound_attempts (
  delivery_id bigint NOT NULL REFERENCES outbound_deliveries(id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  at bigint NOT NULL,
  status integer,
  error text,
  duration_ms integer,
  PRIMARY KEY (delivery_id, attempt)
);

INSERT INTO outbound_attempts (delivery_id, attempt, at, status, error, duration_ms)
  SELECT id, attempts, last_attempt_at, last_status, last_error, last_duration_ms FROM outbound_deliveries
  WHERE attempts > 0 AND last_attempt_at IS NOT NULL;

CREATE INDEX outbound_failed ON outbound_deliveries (kind, target_id) WHERE state = 'failed';
