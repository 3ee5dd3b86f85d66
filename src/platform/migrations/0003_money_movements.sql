CREATE TABLE "commissions" (
	"merchant_id" bigint NOT NULL,
	"operation" text NOT NULL,
	"percent_bp" integer NOT NULL,
	"fixed_minor" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "commissions_merchant_id_operation_pk" PRIMARY KEY("merchant_id","operation"),
	CONSTRAINT "commissions_operation_check" CHECK ("commissions"."operation" in ('pay', 'payout', 'refund')),
	CONSTRAINT "commissions_terms_check" CHECK ("commissions"."percent_bp" between 0 and 10000 and "commissions"."fixed_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "dispute_documents" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dispute_documents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"dispute_id" bigint NOT NULL,
	"file_name" text NOT NULL,
	"stored_name" text NOT NULL,
	"media_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disputes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "disputes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token" text NOT NULL,
	"payment_id" bigint NOT NULL,
	"merchant_id" bigint NOT NULL,
	"environment" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"status" text NOT NULL,
	"resolution_note" text,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disputes_status_check" CHECK ("disputes"."status" in ('open', 'under_review', 'won', 'lost')),
	CONSTRAINT "disputes_amount_check" CHECK ("disputes"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_balances" (
	"merchant_id" bigint NOT NULL,
	"environment" text NOT NULL,
	"currency" text NOT NULL,
	"account" text NOT NULL,
	"balance_minor" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_balances_merchant_id_environment_currency_account_pk" PRIMARY KEY("merchant_id","environment","currency","account"),
	CONSTRAINT "ledger_balances_non_negative_check" CHECK ("ledger_balances"."account" not in ('hold', 'fees') or "ledger_balances"."balance_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"transaction_id" bigint NOT NULL,
	"account" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	CONSTRAINT "ledger_entries_account_check" CHECK ("ledger_entries"."account" in ('available', 'hold', 'fees', 'customers', 'payouts')),
	CONSTRAINT "ledger_entries_amount_check" CHECK ("ledger_entries"."amount_minor" <> 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_transactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"environment" text NOT NULL,
	"currency" text NOT NULL,
	"kind" text NOT NULL,
	"payment_id" bigint,
	"refund_id" bigint,
	"dispute_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_transactions_kind_check" CHECK ("ledger_transactions"."kind" in ('payment_captured', 'payment_reversed', 'payout_reserved', 'payout_sent', 'payout_released', 'payout_returned', 'refund_reserved', 'refund_sent', 'refund_released', 'dispute_held', 'dispute_won', 'dispute_lost'))
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "refunds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token" text NOT NULL,
	"payment_id" bigint NOT NULL,
	"merchant_id" bigint NOT NULL,
	"environment" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"commission_percent_bp" integer DEFAULT 0 NOT NULL,
	"commission_fixed_minor" bigint DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"gateway_token" text,
	"decline_reason" text,
	"finalized_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" in ('pending', 'approved', 'declined')),
	CONSTRAINT "refunds_amount_check" CHECK ("refunds"."amount_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_status_check";--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "refund_id" bigint;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "dispute_id" bigint;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "commission_percent_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "commission_fixed_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "captured_minor" bigint;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "authorized_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_documents" ADD CONSTRAINT "dispute_documents_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_balances" ADD CONSTRAINT "ledger_balances_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dispute_documents_dispute_idx" ON "dispute_documents" USING btree ("dispute_id");--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_token_idx" ON "disputes" USING btree ("token");--> statement-breakpoint
CREATE INDEX "disputes_merchant_env_created_idx" ON "disputes" USING btree ("merchant_id","environment","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "disputes_payment_idx" ON "disputes" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_idx" ON "ledger_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_payment_idx" ON "ledger_transactions" USING btree ("payment_id") WHERE "ledger_transactions"."payment_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_transactions_refund_idx" ON "ledger_transactions" USING btree ("refund_id") WHERE "ledger_transactions"."refund_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_transactions_dispute_idx" ON "ledger_transactions" USING btree ("dispute_id") WHERE "ledger_transactions"."dispute_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_token_idx" ON "refunds" USING btree ("token");--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id","id");--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_authorized_until_idx" ON "payments" USING btree ("authorized_until") WHERE "payments"."status" = 'authorized';--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_check" CHECK ("payments"."refunded_minor" >= 0 and "payments"."refunded_minor" <= coalesce("payments"."captured_minor", 0));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('init', 'pending', 'processing', 'authorized', 'approved', 'declined', 'expired', 'cancelled', 'refunded'));--> statement-breakpoint
-- Payments approved before the ledger existed: captured whole, without commission, posted once, so the ledger
-- check holds for old data too.
UPDATE "payments" SET "captured_minor" = "amount_minor" WHERE "operation_type" = 'pay' AND "status" IN ('approved', 'refunded');--> statement-breakpoint
INSERT INTO "ledger_transactions" ("merchant_id", "environment", "currency", "kind", "payment_id", "created_at")
  SELECT "merchant_id", "environment", "currency", 'payment_captured', "id", coalesce("finalized_at", "updated_at") FROM "payments"
  WHERE "operation_type" = 'pay' AND "status" IN ('approved', 'refunded') AND "amount_minor" > 0;--> statement-breakpoint
INSERT INTO "ledger_entries" ("transaction_id", "account", "amount_minor")
  SELECT t."id", e."account", e."amount" FROM "ledger_transactions" t JOIN "payments" p ON p."id" = t."payment_id"
  CROSS JOIN LATERAL (VALUES ('customers', -p."amount_minor"), ('available', p."amount_minor")) AS e("account", "amount");--> statement-breakpoint
INSERT INTO "ledger_balances" ("merchant_id", "environment", "currency", "account", "balance_minor")
  SELECT t."merchant_id", t."environment", t."currency", e."account", sum(e."amount_minor") FROM "ledger_entries" e
  JOIN "ledger_transactions" t ON t."id" = e."transaction_id" GROUP BY t."merchant_id", t."environment", t."currency", e."account";
--> statement-breakpoint
CREATE TABLE "sandbox_refunds" (
	"refund_token" text PRIMARY KEY NOT NULL,
	"payment_token" text NOT NULL,
	"gateway_token" text NOT NULL,
	"requested_minor" bigint,
	"amount_minor" bigint,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"decline_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_refunds_status_check" CHECK ("sandbox_refunds"."status" in ('approved', 'declined'))
);
--> statement-breakpoint
ALTER TABLE "sandbox_refunds" ADD CONSTRAINT "sandbox_refunds_payment_token_sandbox_transactions_payment_token_fk" FOREIGN KEY ("payment_token") REFERENCES "public"."sandbox_transactions"("payment_token") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_refunds_gateway_token_idx" ON "sandbox_refunds" USING btree ("gateway_token");--> statement-breakpoint
CREATE INDEX "sandbox_refunds_payment_token_idx" ON "sandbox_refunds" USING btree ("payment_token");
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "issued_recurring_token" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "issued_wallet_token" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "last_recurring_charge_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_issued_recurring_token_idx" ON "payments" USING btree ("issued_recurring_token") WHERE "payments"."issued_recurring_token" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_issued_wallet_token_idx" ON "payments" USING btree ("issued_wallet_token") WHERE "payments"."issued_wallet_token" is not null;--> statement-breakpoint
ALTER TABLE "sandbox_transactions" ADD COLUMN "recurring_gateway_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_transactions_recurring_token_idx" ON "sandbox_transactions" USING btree ("recurring_gateway_token") WHERE "sandbox_transactions"."recurring_gateway_token" is not null;
--> statement-breakpoint
ALTER TABLE "sandbox_transactions" ADD COLUMN "confirmation" text;--> statement-breakpoint
ALTER TABLE "sandbox_transactions" ADD CONSTRAINT "sandbox_transactions_confirmation_check" CHECK ("sandbox_transactions"."confirmation" in ('awaiting', 'confirmed', 'voided'));
