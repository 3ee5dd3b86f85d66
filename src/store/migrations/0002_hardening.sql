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
