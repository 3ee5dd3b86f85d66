CREATE TABLE "payment_status_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_status_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"payment_id" bigint NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"cause" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_status_changes_cause_check" CHECK ("payment_status_changes"."cause" in ('api', 'adapter', 'callback', 'status_check', 'expiry', 'operator', 'customer', 'system'))
);
--> statement-breakpoint
ALTER TABLE "payment_status_changes" ADD CONSTRAINT "payment_status_changes_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_status_changes_payment_idx" ON "payment_status_changes" USING btree ("payment_id","id");