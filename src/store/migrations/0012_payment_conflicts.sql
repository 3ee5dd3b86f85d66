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
ALTER TABLE "payment_conflicts" ADD CONSTRAINT "payment_conflicts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_conflicts_report_idx" ON "payment_conflicts" USING btree ("payment_id","reported_status");--> statement-breakpoint
CREATE INDEX "payment_conflicts_unresolved_idx" ON "payment_conflicts" USING btree ("created_at","id") WHERE "payment_conflicts"."resolved_at" is null;
