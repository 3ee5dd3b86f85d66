CREATE TABLE "payment_conflicts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_conflicts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"payment_id" bigint NOT NULL,
	"source" text NOT NULL,
	"payment_status" text NOT NULL,
	"reported_status" text NOT NULL,
	"reported_amount_minor" bigint,
	"reported_currency" text,
	"raw_answer" jsonb NOT NULL,
	"resolution" text,
	"resolved_by" text,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_conflicts_source_check" CHECK ("payment_conflicts"."source" in ('callback', 'status')),
	CONSTRAINT "payment_conflicts_reported_status_check" CHECK ("payment_conflicts"."reported_status" in ('approved', 'declined')),
	CONSTRAINT "payment_conflicts_resolution_check" CHECK (("payment_conflicts"."resolution" is null and "payment_conflicts"."resolved_by" is null and "payment_conflicts"."resolved_at" is null) or ("payment_conflicts"."resolution" in ('accepted', 'dismissed') and "payment_conflicts"."resolved_by" is not null and "payment_conflicts"."resolved_at" is not null))
);
--> statement-breakpoint
DROP INDEX "payments_expiry_idx";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "resource_kind" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "resource_token" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "event_sequence" integer;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "event_snapshot" jsonb;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "first_attempted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "exchange_kind" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "exchange_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "exchange_capture_minor" bigint;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "exchange_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "chain_id" bigint;--> statement-breakpoint
ALTER TABLE "payment_conflicts" ADD CONSTRAINT "payment_conflicts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_conflicts_report_idx" ON "payment_conflicts" USING btree ("payment_id","reported_status");--> statement-breakpoint
CREATE INDEX "payment_conflicts_unresolved_idx" ON "payment_conflicts" USING btree ("created_at","id") WHERE "payment_conflicts"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_notification_sequence_idx" ON "outbox" USING btree ("payment_id","event_sequence") WHERE "outbox"."topic" = 'notification';--> statement-breakpoint
CREATE INDEX "sessions_chain_idx" ON "sessions" USING btree ("chain_id");--> statement-breakpoint
CREATE INDEX "payments_expiry_idx" ON "payments" USING btree ("expires_at") WHERE "payments"."status" in ('init', 'pending', 'processing') and "payments"."expires_at" is not null;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_resource_kind_check" CHECK ("idempotency_keys"."resource_kind" in ('payment', 'payout', 'refund', 'dispute'));--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_resource_check" CHECK (("idempotency_keys"."resource_kind" is null) = ("idempotency_keys"."resource_token" is null));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_exchange_kind_check" CHECK ("payments"."exchange_kind" in ('pay', 'payout', 'confirm_request', 'decline_request', 'authorization_void'));--> statement-breakpoint
-- Open payouts stored before payouts had a lifetime get the default one (PAYRAIL_PAYOUT_LIFETIME_MINUTES, 1440).
UPDATE "payments" SET "expires_at" = "created_at" + interval '1440 minutes' WHERE "operation_type" = 'payout' AND "expires_at" IS NULL AND "status" in ('init', 'pending', 'processing');
