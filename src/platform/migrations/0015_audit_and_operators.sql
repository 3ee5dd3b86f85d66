CREATE TABLE "audit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"request_id" text,
	"ip_address" text
);
--> statement-breakpoint
CREATE TABLE "operator_sessions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operator_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token_digest" text NOT NULL,
	"operator_id" bigint NOT NULL,
	"stage" text NOT NULL,
	"code_attempts" smallint DEFAULT 0 NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"ip_address" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "operator_sessions_stage_check" CHECK ("operator_sessions"."stage" in ('second_factor', 'active'))
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operators_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"totp_secret_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operators_role_check" CHECK ("operators"."role" in ('admin', 'support', 'finance')),
	CONSTRAINT "operators_status_check" CHECK ("operators"."status" in ('active', 'disabled'))
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "review_note" text;--> statement-breakpoint
ALTER TABLE "payment_status_changes" ADD COLUMN "actor" text;--> statement-breakpoint
ALTER TABLE "operator_sessions" ADD CONSTRAINT "operator_sessions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_subject_idx" ON "audit_events" USING btree ("subject_type","subject_id","id");--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor","id");--> statement-breakpoint
CREATE INDEX "audit_events_action_idx" ON "audit_events" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "audit_events_occurred_idx" ON "audit_events" USING brin ("occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "operator_sessions_token_idx" ON "operator_sessions" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "operator_sessions_operator_idx" ON "operator_sessions" USING btree ("operator_id");--> statement-breakpoint
CREATE UNIQUE INDEX "operators_email_idx" ON "operators" USING btree ("email");
--> statement-breakpoint
-- Hand-written below (drizzle-kit writes no functions or triggers): the audit log's writers and its guard.
-- The actor, action, request id and client address come from transaction-local settings that the application sets
-- right before a statement that writes an audited table, in that statement's transaction (src/platform/audit-handoff.ts).
CREATE FUNCTION audit_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();--> statement-breakpoint
-- A secret's value never reaches the log: a column holding one shows "[redacted]" when it changed.
CREATE FUNCTION audit_redacted(field text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT field ~ '(hash|digest|sealed|secret|password|cvv)'
$$;--> statement-breakpoint
CREATE FUNCTION audit_setting(name text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting(name, true), '')
$$;--> statement-breakpoint
-- One row per changed row of an audited table: the changed fields before and after (bookkeeping columns left out).
-- TG_ARGV[0]: the subject type; TG_ARGV[1]: the columns that make the subject id (comma-separated).
CREATE FUNCTION audit_row_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_row jsonb := CASE WHEN TG_OP = 'INSERT' THEN '{}'::jsonb ELSE to_jsonb(OLD) END;
  new_row jsonb := CASE WHEN TG_OP = 'DELETE' THEN '{}'::jsonb ELSE to_jsonb(NEW) END;
  whole_row jsonb := CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END;
  fields_before jsonb;
  fields_after jsonb;
  subject_id text;
  default_action text;
BEGIN
  SELECT jsonb_object_agg(field, CASE WHEN audit_redacted(field) THEN '"[redacted]"'::jsonb ELSE old_row -> field END) FILTER (WHERE old_row ? field),
         jsonb_object_agg(field, CASE WHEN audit_redacted(field) THEN '"[redacted]"'::jsonb ELSE new_row -> field END) FILTER (WHERE new_row ? field)
    INTO fields_before, fields_after
    FROM jsonb_object_keys(old_row || new_row) AS field
   WHERE field NOT IN ('created_at', 'updated_at', 'last_used_at', 'last_seen_at')
     AND (old_row -> field) IS DISTINCT FROM (new_row -> field);
  IF fields_before IS NULL AND fields_after IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT string_agg(whole_row ->> trim(part), ':') INTO subject_id FROM unnest(string_to_array(TG_ARGV[1], ',')) AS part;
  default_action := TG_ARGV[0] || CASE
    WHEN TG_OP = 'INSERT' THEN '.created'
    WHEN TG_OP = 'DELETE' THEN '.deleted'
    WHEN old_row ? 'status' AND (old_row -> 'status') IS DISTINCT FROM (new_row -> 'status') THEN '.status_changed'
    ELSE '.updated' END;
  INSERT INTO audit_events (actor, action, subject_type, subject_id, before, after, request_id, ip_address)
  VALUES (coalesce(audit_setting('payrail.actor'), 'system'), coalesce(audit_setting('payrail.action'), default_action), TG_ARGV[0], subject_id,
          fields_before, fields_after, audit_setting('payrail.request_id'), audit_setting('payrail.ip'));
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A payment's or payout's status move, from the row its writer records in the same statement or transaction: the
-- actor the writer named (a request's), else the transaction's, else the engine by the move's cause.
CREATE FUNCTION audit_payment_status_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text;
BEGIN
  SELECT CASE WHEN operation_type = 'payout' THEN 'payout' ELSE 'payment' END INTO kind FROM payments WHERE id = NEW.payment_id;
  INSERT INTO audit_events (occurred_at, actor, action, subject_type, subject_id, before, after, request_id, ip_address)
  VALUES (NEW.created_at, coalesce(NEW.actor, audit_setting('payrail.actor'), 'system:' || NEW.cause),
          coalesce(audit_setting('payrail.action'), kind || CASE WHEN NEW.from_status IS NULL THEN '.created' ELSE '.status_changed' END),
          kind, NEW.payment_id::text,
          CASE WHEN NEW.from_status IS NULL THEN NULL ELSE jsonb_build_object('status', NEW.from_status) END,
          jsonb_build_object('status', NEW.to_status, 'cause', NEW.cause),
          audit_setting('payrail.request_id'), audit_setting('payrail.ip'));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER payment_status_changes_audit AFTER INSERT ON payment_status_changes FOR EACH ROW EXECUTE FUNCTION audit_payment_status_change();--> statement-breakpoint
CREATE TRIGGER refunds_audit_insert AFTER INSERT ON refunds FOR EACH ROW EXECUTE FUNCTION audit_row_change('refund', 'id');--> statement-breakpoint
CREATE TRIGGER refunds_audit_status AFTER UPDATE ON refunds FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION audit_row_change('refund', 'id');--> statement-breakpoint
CREATE TRIGGER disputes_audit AFTER INSERT OR UPDATE OR DELETE ON disputes FOR EACH ROW EXECUTE FUNCTION audit_row_change('dispute', 'id');--> statement-breakpoint
CREATE TRIGGER payment_conflicts_audit AFTER UPDATE ON payment_conflicts FOR EACH ROW EXECUTE FUNCTION audit_row_change('conflict', 'id');--> statement-breakpoint
CREATE TRIGGER merchants_audit AFTER INSERT OR UPDATE OR DELETE ON merchants FOR EACH ROW EXECUTE FUNCTION audit_row_change('merchant', 'id');--> statement-breakpoint
CREATE TRIGGER merchant_keys_audit AFTER INSERT OR UPDATE OR DELETE ON merchant_keys FOR EACH ROW EXECUTE FUNCTION audit_row_change('merchant_key', 'merchant_id,environment');--> statement-breakpoint
CREATE TRIGGER gateways_audit AFTER INSERT OR UPDATE OR DELETE ON gateways FOR EACH ROW EXECUTE FUNCTION audit_row_change('gateway', 'id');--> statement-breakpoint
CREATE TRIGGER commissions_audit AFTER INSERT OR UPDATE OR DELETE ON commissions FOR EACH ROW EXECUTE FUNCTION audit_row_change('commission', 'merchant_id,operation');--> statement-breakpoint
CREATE TRIGGER dashboard_members_audit AFTER INSERT OR UPDATE OR DELETE ON dashboard_members FOR EACH ROW EXECUTE FUNCTION audit_row_change('member', 'id');--> statement-breakpoint
CREATE TRIGGER operators_audit AFTER INSERT OR UPDATE OR DELETE ON operators FOR EACH ROW EXECUTE FUNCTION audit_row_change('operator', 'id');--> statement-breakpoint
CREATE TRIGGER users_audit AFTER INSERT OR UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION audit_row_change('user', 'id');--> statement-breakpoint
CREATE TRIGGER bank_accounts_audit_insert AFTER INSERT ON bank_accounts FOR EACH ROW EXECUTE FUNCTION audit_row_change('bank_account', 'id');--> statement-breakpoint
CREATE TRIGGER bank_accounts_audit_status AFTER UPDATE ON bank_accounts FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION audit_row_change('bank_account', 'id');--> statement-breakpoint
CREATE TRIGGER app_tokens_audit AFTER INSERT OR UPDATE OR DELETE ON app_tokens FOR EACH ROW EXECUTE FUNCTION audit_row_change('app_token', 'id');
