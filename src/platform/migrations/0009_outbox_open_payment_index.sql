DROP INDEX "outbox_payment_idx";--> statement-breakpoint
CREATE INDEX "outbox_open_payment_idx" ON "outbox" USING btree ("payment_id","topic") WHERE "outbox"."done_at" is null;