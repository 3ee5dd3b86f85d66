ALTER TABLE "outbox" ADD COLUMN "event_sequence" integer;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "event_snapshot" jsonb;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "first_attempted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "outbox_notification_sequence_idx" ON "outbox" USING btree ("payment_id","event_sequence") WHERE "outbox"."topic" = 'notification';