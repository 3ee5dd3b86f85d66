ALTER TABLE "idempotency_keys" ADD COLUMN "resource_kind" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "resource_token" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_resource_kind_check" CHECK ("idempotency_keys"."resource_kind" in ('payment', 'payout', 'refund', 'dispute'));--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_resource_check" CHECK (("idempotency_keys"."resource_kind" is null) = ("idempotency_keys"."resource_token" is null));
