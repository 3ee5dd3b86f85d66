ALTER TABLE "payments" ADD COLUMN "exchange_kind" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "exchange_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "exchange_capture_minor" bigint;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "exchange_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_exchange_kind_check" CHECK ("payments"."exchange_kind" in ('pay', 'payout', 'confirm_request', 'decline_request', 'authorization_void'));
