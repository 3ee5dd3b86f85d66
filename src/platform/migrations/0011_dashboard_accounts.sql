CREATE TABLE "dashboard_links" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dashboard_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"token_digest" text NOT NULL,
	"email" text NOT NULL,
	"merchant_id" bigint,
	"member_id" bigint,
	"business_name" text,
	"password_hash" text,
	"role" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dashboard_links_kind_check" CHECK ("dashboard_links"."kind" in ('signup', 'invite', 'reset'))
);
--> statement-breakpoint
CREATE TABLE "dashboard_members" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dashboard_members_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"totp_secret_sealed" text,
	"totp_pending_sealed" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dashboard_members_role_check" CHECK ("dashboard_members"."role" in ('owner', 'developer', 'support', 'viewer'))
);
--> statement-breakpoint
CREATE TABLE "dashboard_sessions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dashboard_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token_digest" text NOT NULL,
	"member_id" bigint NOT NULL,
	"stage" text NOT NULL,
	"code_digest" text,
	"code_attempts" smallint DEFAULT 0 NOT NULL,
	"environment" text DEFAULT 'sandbox' NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"ip_address" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "dashboard_sessions_stage_check" CHECK ("dashboard_sessions"."stage" in ('second_factor', 'active')),
	CONSTRAINT "dashboard_sessions_environment_check" CHECK ("dashboard_sessions"."environment" in ('sandbox', 'production'))
);
--> statement-breakpoint
CREATE TABLE "dashboard_sign_in_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dashboard_sign_in_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"ip_address" text NOT NULL,
	"succeeded" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "review_status" text DEFAULT 'approved' NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "default_callback_url" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "default_success_url" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "default_fail_url" text;--> statement-breakpoint
ALTER TABLE "dashboard_links" ADD CONSTRAINT "dashboard_links_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_links" ADD CONSTRAINT "dashboard_links_member_id_dashboard_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."dashboard_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_members" ADD CONSTRAINT "dashboard_members_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "dashboard_sessions_member_id_dashboard_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."dashboard_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dashboard_links_token_idx" ON "dashboard_links" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "dashboard_links_email_idx" ON "dashboard_links" USING btree ("email","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "dashboard_members_email_idx" ON "dashboard_members" USING btree ("email");--> statement-breakpoint
CREATE INDEX "dashboard_members_merchant_idx" ON "dashboard_members" USING btree ("merchant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "dashboard_sessions_token_idx" ON "dashboard_sessions" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "dashboard_sessions_member_idx" ON "dashboard_sessions" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "dashboard_sign_in_attempts_email_idx" ON "dashboard_sign_in_attempts" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "dashboard_sign_in_attempts_ip_idx" ON "dashboard_sign_in_attempts" USING btree ("ip_address","created_at");