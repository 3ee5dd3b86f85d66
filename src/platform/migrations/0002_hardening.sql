-- Issue 7 (hardening). Hand-written, append-only while the issue is open: each change ends with a statement-breakpoint.
SELECT 1;
--> statement-breakpoint
-- Payment list: each index ends in the list's order (ORDER BY created_at DESC, id DESC is NULLS FIRST), one per filter.
DROP INDEX IF EXISTS "payments_merchant_env_created_idx";--> statement-breakpoint
CREATE INDEX "payments_merchant_env_created_idx" ON "payments" USING btree ("merchant_id","environment","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "payments_merchant_env_type_created_idx" ON "payments" USING btree ("merchant_id","environment","operation_type","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
DROP INDEX IF EXISTS "payments_merchant_env_order_idx";--> statement-breakpoint
CREATE INDEX "payments_merchant_env_order_idx" ON "payments" USING btree ("merchant_id","environment","order_number","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "payments"."order_number" is not null;--> statement-breakpoint
-- One state machine: the database refuses a status the domain does not know.
ALTER TABLE "payments" ADD CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('init', 'pending', 'approved', 'declined', 'expired', 'refunded'));--> statement-breakpoint
-- A provider callback is recognised by the digest of its decoded signature bytes, not of the JWT text.
ALTER TABLE "provider_callbacks" RENAME COLUMN "jwt_digest" TO "signature_digest";--> statement-breakpoint
-- Idempotency: the old digests were unsalted SHA-256 of requests holding PAN and CVV (brute-forceable), so every
-- stored key goes; a claim now holds a renewed lease instead of counting as abandoned after a fixed age.
DELETE FROM "idempotency_keys";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "claim_id" text NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "lease_until" timestamp with time zone NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_state_check" CHECK ("idempotency_keys"."state" in ('in_progress', 'committed', 'completed'));--> statement-breakpoint
-- Provider selection: the gateway the customer picked on the selector page, kept apart from gateway_id (set when sent).
ALTER TABLE "payments" ADD COLUMN "chosen_gateway_id" bigint;--> statement-breakpoint
-- The sandbox acquirer's open transactions live in the database (shared by every api process, kept across restarts).
CREATE TABLE "sandbox_transactions" ("payment_token" text PRIMARY KEY NOT NULL, "gateway_token" text NOT NULL, "operation" text NOT NULL, "scenario" text, "request_fingerprint" text NOT NULL, "amount_minor" bigint NOT NULL, "currency" text NOT NULL, "pan_masked" text, "processing_url" text, "callback_url" text, "status" text NOT NULL, "decline_reason" text, "refunded_minor" bigint DEFAULT 0 NOT NULL, "refund_count" integer DEFAULT 0 NOT NULL, "callback_key_sealed" text, "callback_due_at" timestamp with time zone, "created_at" timestamp with time zone DEFAULT now() NOT NULL, "expires_at" timestamp with time zone NOT NULL, CONSTRAINT "sandbox_transactions_status_check" CHECK ("sandbox_transactions"."status" in ('pending', 'approved', 'declined')));--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_transactions_gateway_token_idx" ON "sandbox_transactions" USING btree ("gateway_token");--> statement-breakpoint
CREATE INDEX "sandbox_transactions_callback_due_idx" ON "sandbox_transactions" USING btree ("callback_due_at") WHERE "sandbox_transactions"."callback_due_at" is not null;--> statement-breakpoint
CREATE INDEX "sandbox_transactions_expires_idx" ON "sandbox_transactions" USING btree ("expires_at");--> statement-breakpoint
