CREATE TABLE "idempotency_keys" (
	"merchant_id" bigint NOT NULL,
	"environment" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_digest" text NOT NULL,
	"state" text NOT NULL,
	"response_status" smallint,
	"response_content_type" text,
	"response_body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_merchant_id_environment_idempotency_key_pk" PRIMARY KEY("merchant_id","environment","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "merchant_keys" (
	"merchant_id" bigint NOT NULL,
	"environment" text NOT NULL,
	"key_digest" text NOT NULL,
	"key_sealed" text NOT NULL,
	"key_prefix" text NOT NULL,
	"rotated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merchant_keys_merchant_id_environment_pk" PRIMARY KEY("merchant_id","environment")
);
--> statement-breakpoint
CREATE TABLE "merchants" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "merchants_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token" text NOT NULL,
	"merchant_id" bigint NOT NULL,
	"environment" text NOT NULL,
	"operation_type" text DEFAULT 'pay' NOT NULL,
	"request_variant" text NOT NULL,
	"status" text NOT NULL,
	"product" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"gateway_amount_minor" bigint NOT NULL,
	"gateway_currency" text NOT NULL,
	"callback_url" text,
	"redirect_success_url" text,
	"redirect_fail_url" text,
	"pending_url" text,
	"extra_return_param" text,
	"order_number" text,
	"locale" text NOT NULL,
	"expires_at" timestamp with time zone,
	"recurring" boolean DEFAULT false NOT NULL,
	"recurring_token" text,
	"wallet_token" text,
	"need_confirmation" boolean DEFAULT false NOT NULL,
	"merchant_url" text,
	"card_mask" text,
	"card_holder" text,
	"card_expiry_month" smallint,
	"card_expiry_year" integer,
	"customer" jsonb,
	"recurring_data" jsonb,
	"bank_account" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_keys" ADD CONSTRAINT "merchant_keys_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_keys_digest_idx" ON "merchant_keys" USING btree ("key_digest");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_token_idx" ON "payments" USING btree ("token");--> statement-breakpoint
CREATE INDEX "payments_merchant_env_created_idx" ON "payments" USING btree ("merchant_id","environment","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payments_merchant_env_order_idx" ON "payments" USING btree ("merchant_id","environment","order_number") WHERE "payments"."order_number" is not null;