CREATE TABLE "app_tokens" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "app_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"token_digest" text NOT NULL,
	"token_prefix" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_accounts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bank_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"profile_id" bigint NOT NULL,
	"token" text NOT NULL,
	"value" text NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider" text DEFAULT 'default' NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"swift_code" text,
	"uk_sort_code" text,
	"uk_account_number" text,
	"account_number" text,
	"account_holder" text,
	"bank_name" text,
	"bank_address" text,
	"recipient_name" text,
	"recipient_address" text,
	"ref_code" text,
	"payment_system" text,
	"outer_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_accounts_status_check" CHECK ("bank_accounts"."status" in ('pending', 'pending_request', 'approved', 'declined', 'closed')),
	CONSTRAINT "bank_accounts_provider_check" CHECK ("bank_accounts"."provider" in ('default', 'beneficiary', 'iban', 'cup', 'card', 'sepa_partner', 'swift_partner', 'faster_payments_partner', 'card_issuer'))
);
--> statement-breakpoint
CREATE TABLE "bank_cards" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bank_cards_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"profile_id" bigint NOT NULL,
	"bank_account_id" bigint NOT NULL,
	"merchant_id" bigint NOT NULL,
	"environment" text NOT NULL,
	"issuer" text NOT NULL,
	"outer_id" text,
	"card_type" text NOT NULL,
	"status" text NOT NULL,
	"pan_mask" text,
	"exp_month" smallint,
	"exp_year" smallint,
	"holder_first_name" text NOT NULL,
	"holder_last_name" text NOT NULL,
	"phone" text,
	"holder_phone" text,
	"country_code" text,
	"delivery" jsonb,
	"rejection_reason" text,
	"pin_set_at" timestamp with time zone,
	"page_nonce" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_cards_type_check" CHECK ("bank_cards"."card_type" in ('virtual', 'physical')),
	CONSTRAINT "bank_cards_status_check" CHECK ("bank_cards"."status" in ('active', 'rejected', 'blocked', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "bank_transfers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bank_transfers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token" text NOT NULL,
	"request_digest" text NOT NULL,
	"app_token_id" bigint NOT NULL,
	"profile_id" bigint NOT NULL,
	"bank_account_id" bigint NOT NULL,
	"direction" text NOT NULL,
	"provider" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_transfers_direction_check" CHECK ("bank_transfers"."direction" in ('credit', 'debit')),
	CONSTRAINT "bank_transfers_amount_check" CHECK ("bank_transfers"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "login_challenges" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "login_challenges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token_digest" text NOT NULL,
	"user_id" bigint,
	"code_digest" text,
	"login_digest" text NOT NULL,
	"wrong_codes" smallint DEFAULT 0 NOT NULL,
	"client_ip" text NOT NULL,
	"method" text,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "money_charges" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "money_charges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"requester_id" bigint NOT NULL,
	"payer_id" bigint NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"privacy" text DEFAULT 'private' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "money_charges_status_check" CHECK ("money_charges"."status" in ('pending', 'paid', 'declined', 'cancelled')),
	CONSTRAINT "money_charges_privacy_check" CHECK ("money_charges"."privacy" in ('public', 'friends', 'private')),
	CONSTRAINT "money_charges_amount_check" CHECK ("money_charges"."amount_minor" > 0),
	CONSTRAINT "money_charges_parties_check" CHECK ("money_charges"."requester_id" <> "money_charges"."payer_id")
);
--> statement-breakpoint
CREATE TABLE "profile_files" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "profile_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"profile_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"stored_name" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token_digest" text NOT NULL,
	"user_id" bigint NOT NULL,
	"method" text,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_memberships" (
	"business_id" bigint NOT NULL,
	"member_id" bigint NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_memberships_business_id_member_id_pk" PRIMARY KEY("business_id","member_id"),
	CONSTRAINT "user_memberships_role_check" CHECK ("user_memberships"."role" in ('owner', 'member'))
);
--> statement-breakpoint
CREATE TABLE "user_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "user_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"expires_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_messages_channel_check" CHECK ("user_messages"."channel" in ('log', 'email'))
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text DEFAULT 'person' NOT NULL,
	"email" text,
	"phone" text,
	"name" text NOT NULL,
	"surname" text DEFAULT '' NOT NULL,
	"company_name" text,
	"wallet_type" text DEFAULT 'personal' NOT NULL,
	"current_currency" text NOT NULL,
	"country" text,
	"kyc_status" text DEFAULT 'not_started' NOT NULL,
	"wallet_pin_enabled" boolean DEFAULT false NOT NULL,
	"password_hash" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_kind_check" CHECK ("users"."kind" in ('person', 'business')),
	CONSTRAINT "users_wallet_type_check" CHECK ("users"."wallet_type" in ('personal', 'business')),
	CONSTRAINT "users_kyc_status_check" CHECK ("users"."kyc_status" in ('not_started', 'pending', 'approved', 'rejected')),
	CONSTRAINT "users_person_login_check" CHECK ("users"."kind" = 'business' or ("users"."email" is not null and "users"."password_hash" is not null))
);
--> statement-breakpoint
CREATE TABLE "wallet_balances" (
	"profile_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"account" text NOT NULL,
	"balance_minor" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_balances_profile_id_currency_account_pk" PRIMARY KEY("profile_id","currency","account"),
	CONSTRAINT "wallet_balances_account_check" CHECK ("wallet_balances"."account" in ('wallet', 'banks', 'clearing')),
	CONSTRAINT "wallet_balances_non_negative_check" CHECK ("wallet_balances"."account" <> 'wallet' or "wallet_balances"."balance_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_account_check";--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_transactions" ALTER COLUMN "merchant_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "profile_id" bigint;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "transfer_id" bigint;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "charge_id" bigint;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_profile_id_users_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_cards" ADD CONSTRAINT "bank_cards_profile_id_users_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_cards" ADD CONSTRAINT "bank_cards_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_cards" ADD CONSTRAINT "bank_cards_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_app_token_id_app_tokens_id_fk" FOREIGN KEY ("app_token_id") REFERENCES "public"."app_tokens"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_profile_id_users_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_challenges" ADD CONSTRAINT "login_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_charges" ADD CONSTRAINT "money_charges_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_charges" ADD CONSTRAINT "money_charges_payer_id_users_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_files" ADD CONSTRAINT "profile_files_profile_id_users_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_memberships" ADD CONSTRAINT "user_memberships_business_id_users_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_memberships" ADD CONSTRAINT "user_memberships_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_messages" ADD CONSTRAINT "user_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_balances" ADD CONSTRAINT "wallet_balances_profile_id_users_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_tokens_digest_idx" ON "app_tokens" USING btree ("token_digest");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_token_idx" ON "bank_accounts" USING btree ("token");--> statement-breakpoint
CREATE INDEX "bank_accounts_profile_idx" ON "bank_accounts" USING btree ("profile_id","id");--> statement-breakpoint
CREATE INDEX "bank_accounts_outer_id_idx" ON "bank_accounts" USING btree ("outer_id") WHERE "bank_accounts"."outer_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_cards_outer_id_idx" ON "bank_cards" USING btree ("issuer","outer_id") WHERE "bank_cards"."outer_id" is not null;--> statement-breakpoint
CREATE INDEX "bank_cards_bank_account_idx" ON "bank_cards" USING btree ("bank_account_id");--> statement-breakpoint
CREATE INDEX "bank_cards_profile_idx" ON "bank_cards" USING btree ("profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_transfers_token_idx" ON "bank_transfers" USING btree ("token");--> statement-breakpoint
CREATE INDEX "bank_transfers_profile_idx" ON "bank_transfers" USING btree ("profile_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "login_challenges_token_idx" ON "login_challenges" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "login_challenges_user_idx" ON "login_challenges" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "login_challenges_login_idx" ON "login_challenges" USING btree ("login_digest","created_at");--> statement-breakpoint
CREATE INDEX "login_challenges_ip_idx" ON "login_challenges" USING btree ("client_ip","created_at");--> statement-breakpoint
CREATE INDEX "money_charges_payer_idx" ON "money_charges" USING btree ("payer_id","id");--> statement-breakpoint
CREATE INDEX "money_charges_requester_idx" ON "money_charges" USING btree ("requester_id","id");--> statement-breakpoint
CREATE INDEX "profile_files_profile_idx" ON "profile_files" USING btree ("profile_id","kind","id");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_idx" ON "sessions" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_memberships_member_idx" ON "user_memberships" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "user_messages_pending_idx" ON "user_messages" USING btree ("created_at") WHERE "user_messages"."sent_at" is null and "user_messages"."body" <> '';--> statement-breakpoint
CREATE INDEX "user_messages_live_body_idx" ON "user_messages" USING btree ("expires_at") WHERE "user_messages"."body" <> '';--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_idx" ON "users" USING btree ("email") WHERE "users"."email" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_phone_idx" ON "users" USING btree ("phone") WHERE "users"."phone" is not null;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_profile_id_users_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_transfer_id_bank_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."bank_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_charge_id_money_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."money_charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_transactions_profile_idx" ON "ledger_transactions" USING btree ("profile_id") WHERE "ledger_transactions"."profile_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_transactions_transfer_idx" ON "ledger_transactions" USING btree ("transfer_id") WHERE "ledger_transactions"."transfer_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_transactions_charge_idx" ON "ledger_transactions" USING btree ("charge_id") WHERE "ledger_transactions"."charge_id" is not null;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_check" CHECK ("ledger_entries"."account" in ('available', 'hold', 'fees', 'customers', 'payouts', 'wallet', 'banks', 'clearing'));--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_owner_check" CHECK (num_nonnulls("ledger_transactions"."merchant_id", "ledger_transactions"."profile_id") = 1);--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK ("ledger_transactions"."kind" in ('payment_captured', 'payment_reversed', 'payout_reserved', 'payout_sent', 'payout_released', 'payout_returned', 'refund_reserved', 'refund_sent', 'refund_released', 'dispute_held', 'dispute_won', 'dispute_lost', 'transfer_credited', 'transfer_debited', 'charge_paid', 'charge_received'));