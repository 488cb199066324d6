-- The outbound queue's tables leave the change stamp (014-change-stamp.sql) alone, as SQLite's store leaves its
-- queue's bookkeeping out of its stamp (storage/sqlite/outbound-store.ts): no kept read shows a delivery's state,
-- and a fan-out of 1,000 pushes is thousands of leases and outcomes, each of which retired every kept read of
-- every server. Queueing a delivery happens in the transaction of what caused it (a message), which moves the
-- stamp through its own tables.
DROP TRIGGER change_stamp ON outbound_deliveries;
DROP TRIGGER change_stamp ON outbound_attempts;
