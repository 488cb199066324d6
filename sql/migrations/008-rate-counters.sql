-- Counters of the request quotas (write and registration limits, failed logins) for --workers: every process
-- counts in the same rows, so a client's quota is one quota however its requests are spread. One row a key,
-- a fixed window each; rows of ended windows are deleted from time to time.
CREATE TABLE rate_counters (
  key TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  reset_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
