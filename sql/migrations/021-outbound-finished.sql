-- Finished outbound deliveries (delivered, failed, dropped) by the time they were queued: the retention sweep
-- (src/outbound/delivery-retention.ts, --delivery-retention) finds the ones past it without reading the queue.
CREATE INDEX outbound_finished ON outbound_deliveries (created_at) WHERE state <> 'pending';
