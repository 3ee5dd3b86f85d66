ALTER TABLE "payments" ADD COLUMN "pending_step" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox_transactions" ADD COLUMN "step_state" jsonb;