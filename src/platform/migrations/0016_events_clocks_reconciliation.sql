CREATE TABLE "reconciliation_items" (
	"reconciliation_id" bigint NOT NULL,
	"item_number" integer NOT NULL,
	"line_number" integer,
	"outcome" text,
	"gateway_token" text,
	"payment_id" bigint,
	"file_amount_minor" bigint,
	"file_currency" text,
	"file_fee_minor" bigint,
	"file_status" text,
	"file_date" timestamp with time zone,
	CONSTRAINT "reconciliation_items_reconciliation_id_item_number_pk" PRIMARY KEY("reconciliation_id","item_number"),
	CONSTRAINT "reconciliation_items_outcome_check" CHECK ("reconciliation_items"."outcome" in ('matched', 'missing_in_payrail', 'missing_in_file', 'amount_mismatch', 'currency_mismatch', 'status_mismatch', 'duplicate_in_file'))
);
--> statement-breakpoint
CREATE TABLE "reconciliations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reconciliations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token" text NOT NULL,
	"gateway_id" bigint NOT NULL,
	"file_digest" text NOT NULL,
	"file_name" text,
	"status" text NOT NULL,
	"line_count" integer DEFAULT 0 NOT NULL,
	"period_from" timestamp with time zone,
	"period_to" timestamp with time zone,
	"summary" jsonb,
	"error" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "reconciliations_status_check" CHECK ("reconciliations"."status" in ('processing', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "test_clocks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "test_clocks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token" text NOT NULL,
	"merchant_id" bigint NOT NULL,
	"name" text,
	"offset_ms" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "settlement_columns" jsonb;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "event_type" text GENERATED ALWAYS AS (case event_snapshot ->> 'kind'
      when 'payment' then (case event_snapshot -> 'payment' ->> 'operationType' when 'payout' then 'payout' else 'payment' end)
        || '.' || (event_snapshot -> 'payment' ->> 'status')
      when 'refund' then 'refund.' || (event_snapshot -> 'record' ->> 'status')
      when 'dispute' then 'dispute.' || (case event_snapshot -> 'record' ->> 'status' when 'open' then 'opened' else event_snapshot -> 'record' ->> 'status' end)
      when 'conflict' then 'payment.conflict' end) STORED;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "test_clock_id" bigint;--> statement-breakpoint
ALTER TABLE "reconciliation_items" ADD CONSTRAINT "reconciliation_items_reconciliation_id_reconciliations_id_fk" FOREIGN KEY ("reconciliation_id") REFERENCES "public"."reconciliations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_items" ADD CONSTRAINT "reconciliation_items_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD CONSTRAINT "reconciliations_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_clocks" ADD CONSTRAINT "test_clocks_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reconciliation_items_token_idx" ON "reconciliation_items" USING btree ("reconciliation_id","gateway_token");--> statement-breakpoint
CREATE INDEX "reconciliation_items_outcome_idx" ON "reconciliation_items" USING btree ("reconciliation_id","outcome","item_number");--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliations_token_idx" ON "reconciliations" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliations_gateway_file_idx" ON "reconciliations" USING btree ("gateway_id","file_digest");--> statement-breakpoint
CREATE INDEX "reconciliations_created_idx" ON "reconciliations" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "test_clocks_token_idx" ON "test_clocks" USING btree ("token");--> statement-breakpoint
CREATE INDEX "test_clocks_merchant_idx" ON "test_clocks" USING btree ("merchant_id","id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_test_clock_id_test_clocks_id_fk" FOREIGN KEY ("test_clock_id") REFERENCES "public"."test_clocks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_event_id_idx" ON "outbox" USING btree ("event_id") WHERE "outbox"."topic" = 'notification';--> statement-breakpoint
CREATE INDEX "payments_gateway_token_idx" ON "payments" USING btree ("gateway_id","gateway_token") WHERE "payments"."gateway_token" is not null;--> statement-breakpoint
CREATE INDEX "payments_test_clock_idx" ON "payments" USING btree ("test_clock_id") WHERE "payments"."test_clock_id" is not null;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_test_clock_sandbox_check" CHECK ("payments"."test_clock_id" is null or "payments"."environment" = 'sandbox');