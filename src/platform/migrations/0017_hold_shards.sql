ALTER TABLE "ledger_balances" DROP CONSTRAINT "ledger_balances_shard_check";--> statement-breakpoint
ALTER TABLE "ledger_balances" ADD CONSTRAINT "ledger_balances_shard_check" CHECK ("ledger_balances"."shard" between 0 and 63);--> statement-breakpoint
-- Hold moves to the shard of what it is held for (the refund, else the dispute, else the payout or payment:
-- ledger-repo.ts postLedger, 16 shards), rebuilt from the hold entries of each one's transactions.
DELETE FROM "ledger_balances" WHERE "account" = 'hold';--> statement-breakpoint
INSERT INTO "ledger_balances" ("merchant_id", "environment", "currency", "account", "shard", "balance_minor")
  SELECT t."merchant_id", t."environment", t."currency", 'hold', (coalesce(t."refund_id", t."dispute_id", t."payment_id", 0) % 16)::smallint,
    sum(e."amount_minor")::bigint
  FROM "ledger_entries" e JOIN "ledger_transactions" t ON t."id" = e."transaction_id"
  WHERE e."account" = 'hold'
  GROUP BY 1, 2, 3, 5
  HAVING sum(e."amount_minor") <> 0;
