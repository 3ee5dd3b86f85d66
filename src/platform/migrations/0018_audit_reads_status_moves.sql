-- The audit log reads a payment's status moves from payment_status_changes instead of a copy in audit_events (one
-- truth; the copy was a quarter of a payment create's PostgreSQL time). Both draw their ids from audit_events'
-- sequence, so the log's keyset stays one id, newest first (back-office/store/audit-repo.ts).
DROP TRIGGER "payment_status_changes_audit" ON "payment_status_changes";--> statement-breakpoint
DROP FUNCTION "audit_payment_status_change"();--> statement-breakpoint
ALTER TABLE "payment_status_changes" ALTER COLUMN "id" DROP IDENTITY;--> statement-breakpoint
-- Every id either table handed out stays below the shared sequence's next value.
SELECT setval('audit_events_id_seq', greatest(
  (SELECT coalesce(max("id"), 0) FROM "payment_status_changes"),
  (SELECT coalesce(max("id"), 0) FROM "audit_events"),
  (SELECT "last_value" FROM "audit_events_id_seq"),
  1));--> statement-breakpoint
ALTER TABLE "payment_status_changes" ALTER COLUMN "id" SET DEFAULT nextval('audit_events_id_seq');--> statement-breakpoint
ALTER TABLE "payment_status_changes" ADD COLUMN "action" text;--> statement-breakpoint
ALTER TABLE "payment_status_changes" ADD COLUMN "request_id" text;--> statement-breakpoint
ALTER TABLE "payment_status_changes" ADD COLUMN "ip_address" text;--> statement-breakpoint
-- The rows already written were copied into audit_events by the dropped trigger: false keeps them out of the log's
-- reading of this table; every row written from now on is read there.
ALTER TABLE "payment_status_changes" ADD COLUMN "in_audit_log" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_status_changes" ALTER COLUMN "in_audit_log" SET DEFAULT true;--> statement-breakpoint
CREATE INDEX "payment_status_changes_person_idx" ON "payment_status_changes" USING btree ("actor","id") WHERE "payment_status_changes"."actor" is not null and "payment_status_changes"."actor" not like 'key:%';--> statement-breakpoint
CREATE INDEX "payment_status_changes_action_idx" ON "payment_status_changes" USING btree ("action","id") WHERE "payment_status_changes"."action" is not null;--> statement-breakpoint
CREATE INDEX "payment_status_changes_created_idx" ON "payment_status_changes" USING brin ("created_at");--> statement-breakpoint
-- A move a person made (an operator, a member: the request handed its audit settings over, platform/audit-handoff.ts)
-- keeps the action, request id and address the copy kept; the merchant API's and the engine's moves pay nothing.
CREATE FUNCTION audit_status_move_context() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.actor := coalesce(NEW.actor, audit_setting('payrail.actor'));
  NEW.action := coalesce(NEW.action, audit_setting('payrail.action'));
  NEW.request_id := coalesce(NEW.request_id, audit_setting('payrail.request_id'));
  NEW.ip_address := coalesce(NEW.ip_address, audit_setting('payrail.ip'));
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER payment_status_changes_audit_context BEFORE INSERT ON payment_status_changes FOR EACH ROW
  WHEN (audit_setting('payrail.actor') IS NOT NULL) EXECUTE FUNCTION audit_status_move_context();--> statement-breakpoint
-- Part of the audit log, so as append-only as audit_events.
CREATE OR REPLACE FUNCTION audit_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER payment_status_changes_append_only BEFORE UPDATE OR DELETE ON payment_status_changes FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();--> statement-breakpoint
CREATE TRIGGER payment_status_changes_no_truncate BEFORE TRUNCATE ON payment_status_changes FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();
