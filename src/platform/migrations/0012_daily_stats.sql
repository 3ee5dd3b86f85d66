CREATE TABLE "payment_daily_stats" (
	"merchant_id" bigint NOT NULL,
	"environment" text NOT NULL,
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"count" bigint NOT NULL,
	"volume_minor" bigint NOT NULL,
	CONSTRAINT "payment_daily_stats_pk" PRIMARY KEY("merchant_id","environment","dimension","day","currency","value"),
	CONSTRAINT "payment_daily_stats_value_check" CHECK (("payment_daily_stats"."dimension" = 'status' and "payment_daily_stats"."value" in ('approved', 'declined', 'expired', 'cancelled', 'refunded'))
        or ("payment_daily_stats"."dimension" = 'decline_class' and "payment_daily_stats"."value" in ('do_not_honor', 'insufficient_funds', 'expired_card', 'authentication_failed', 'other'))
        or ("payment_daily_stats"."dimension" = 'method' and "payment_daily_stats"."value" in ('recurring', 'wallet', 'bank_account', 'card', 'other')))
);
--> statement-breakpoint
CREATE TABLE "payment_stat_deltas" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_stat_deltas_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"environment" text NOT NULL,
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"decline_class" text,
	"method" text NOT NULL,
	"count" smallint NOT NULL,
	"volume_minor" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_daily_stats" ADD CONSTRAINT "payment_daily_stats_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Hand-written below (drizzle-kit writes no functions or triggers): what keeps payment_daily_stats current
-- (store/tables-daily-stats.ts says what a bucket counts). Each statement ends with a statement-breakpoint.
-- A payment's contribution is computed by these three functions only: the trigger and the rebuild
-- (store/daily-stats-repo.ts rebuildStats) both call them, so the two always agree.
-- The class of a decline reason: domain/decline-class.ts declineClassOf in PostgreSQL's regular expressions (\y is
-- JavaScript's \b); test/payments/integration/daily-stats.test.ts holds the two to the same answers.
CREATE FUNCTION "payment_decline_class"(reason text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  stripped text;
BEGIN
  IF reason IS NULL THEN
    RETURN 'other';
  END IF;
  stripped := regexp_replace(left(reason, 1000), '^\s*gateway response error:\s*', '', 'i');
  IF stripped ~* '\yexpired[ _]card\y|\ycard\y[^.]{0,40}\yexpired\y|\yexpired\y[^.]{0,40}\ycard\y|^\s*54\y' THEN
    RETURN 'expired_card';
  END IF;
  IF stripped ~* '\yinsufficient[ _]funds?\y|\ynot sufficient funds\y|\ynsf\y|^\s*51\y' THEN
    RETURN 'insufficient_funds';
  END IF;
  IF stripped ~* ('\y(?:3-?d[ -]?secure|3ds|authenticat\w*|secure code|otp|challenge)\y[^.]{0,40}\yfail|\yauthentication_failed\y'
      || '|\yfailed\y[^.]{0,40}\y(?:challenge|authentication)\y|\ywrong secure code\y') THEN
    RETURN 'authentication_failed';
  END IF;
  IF stripped ~* '\ydo[ _]not[ _]hono(?:u)?r\y|\ycard[ _](?:was )?declined\y|\ydeclined by (?:the )?issuer\y|\yissuer declined\y|^\s*05\y' THEN
    RETURN 'do_not_honor';
  END IF;
  RETURN 'other';
END
$$;
--> statement-breakpoint
-- How the customer paid (domain/daily-stats.ts STAT_METHODS, first match wins): a series charge carries the card on
-- file's mask, so the series tokens come first. A payment without a bank account may hold a JSON null there (the
-- insert's jsonb placeholder), not an SQL NULL.
CREATE FUNCTION "payment_stat_method"(recurring_token text, wallet_token text, bank_account jsonb, card_mask text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN recurring_token IS NOT NULL THEN 'recurring'
    WHEN wallet_token IS NOT NULL THEN 'wallet'
    WHEN jsonb_typeof(bank_account) = 'object' THEN 'bank_account'
    WHEN card_mask IS NOT NULL THEN 'card'
    ELSE 'other'
  END
$$;
--> statement-breakpoint
-- What a payment adds to volume_minor: what an approved (or later refunded) payment captured, any other its amount.
CREATE FUNCTION "payment_stat_volume"(status text, amount_minor bigint, captured_minor bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN status IN ('approved', 'refunded') THEN coalesce(captured_minor, amount_minor) ELSE amount_minor END
$$;
--> statement-breakpoint
-- One delta row per side of a change to a final pay's contribution: -old when it had a final status, +new when it
-- has one. An insert each, never an update: a busy merchant's finalizations share no row (the worker folds them).
CREATE FUNCTION "payment_stat_deltas_write"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status IN ('approved', 'declined', 'expired', 'cancelled', 'refunded') THEN
    INSERT INTO payment_stat_deltas (merchant_id, environment, day, currency, status, decline_class, method, count, volume_minor)
    VALUES (OLD.merchant_id, OLD.environment, (OLD.created_at AT TIME ZONE 'UTC')::date, OLD.currency, OLD.status,
      CASE WHEN OLD.status = 'declined' THEN payment_decline_class(OLD.decline_reason) END,
      payment_stat_method(OLD.recurring_token, OLD.wallet_token, OLD.bank_account, OLD.card_mask),
      -1, -payment_stat_volume(OLD.status, OLD.amount_minor, OLD.captured_minor));
  END IF;
  IF NEW.status IN ('approved', 'declined', 'expired', 'cancelled', 'refunded') THEN
    INSERT INTO payment_stat_deltas (merchant_id, environment, day, currency, status, decline_class, method, count, volume_minor)
    VALUES (NEW.merchant_id, NEW.environment, (NEW.created_at AT TIME ZONE 'UTC')::date, NEW.currency, NEW.status,
      CASE WHEN NEW.status = 'declined' THEN payment_decline_class(NEW.decline_reason) END,
      payment_stat_method(NEW.recurring_token, NEW.wallet_token, NEW.bank_account, NEW.card_mask),
      1, payment_stat_volume(NEW.status, NEW.amount_minor, NEW.captured_minor));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Every writer of payments.status is covered (store/status-writer.ts, the one-statement store/outcome-statement-repo.ts,
-- and any later one). Besides the status, the columns a final payment's contribution reads that may still change while
-- it stays final (a callback's amount under enable_update_amount, a decline reason): each such change moves it too.
-- Payments are born init or pending (store/payments-repo.ts), so an insert never has a contribution.
CREATE TRIGGER "payments_stat_deltas" AFTER UPDATE OF "status", "amount_minor", "captured_minor", "decline_reason" ON "payments"
FOR EACH ROW WHEN (
  NEW.operation_type = 'pay'
  AND (OLD.status IN ('approved', 'declined', 'expired', 'cancelled', 'refunded') OR NEW.status IN ('approved', 'declined', 'expired', 'cancelled', 'refunded'))
  AND (OLD.status IS DISTINCT FROM NEW.status OR OLD.amount_minor IS DISTINCT FROM NEW.amount_minor
    OR OLD.captured_minor IS DISTINCT FROM NEW.captured_minor OR OLD.decline_reason IS DISTINCT FROM NEW.decline_reason)
) EXECUTE FUNCTION "payment_stat_deltas_write"();
