ALTER TABLE "gateways" ADD COLUMN "routing" jsonb;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "routing_decision" jsonb;