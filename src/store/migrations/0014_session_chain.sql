ALTER TABLE "sessions" ADD COLUMN "chain_id" bigint;--> statement-breakpoint
CREATE INDEX "sessions_chain_idx" ON "sessions" USING btree ("chain_id");
