-- A transaction begun where an actor is known now gets the audit settings with its BEGIN (platform/audit-handoff.ts),
-- a merchant key's and a worker's too: a payment's status move takes action, request id and address from them only
-- when a person (an operator, a member) made it, as before; a key's or a worker's move keeps its own actor alone.
DROP TRIGGER "payment_status_changes_audit_context" ON "payment_status_changes";--> statement-breakpoint
CREATE TRIGGER payment_status_changes_audit_context BEFORE INSERT ON payment_status_changes FOR EACH ROW
  WHEN (audit_setting('payrail.actor') IS NOT NULL AND audit_setting('payrail.actor') NOT LIKE 'key:%'
    AND audit_setting('payrail.actor') NOT LIKE 'system:%') EXECUTE FUNCTION audit_status_move_context();
