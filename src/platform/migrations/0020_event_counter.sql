-- A payment's notifications take their sequence numbers from a counter on its row, moved by the statement that queues
-- each one (payments/store/notification-events-repo.ts), instead of max(outbox.event_sequence) + 1 read under a lock
-- taken in an earlier statement: an UPDATE re-reads the row it waited for, so one statement allocates correctly
-- without a lock of its own. No backfill: the next number counts on from the greater of the counter and the outbox's
-- highest, so payments notified before this migration continue where they were.
ALTER TABLE "payments" ADD COLUMN "last_event_sequence" integer DEFAULT 0 NOT NULL;
