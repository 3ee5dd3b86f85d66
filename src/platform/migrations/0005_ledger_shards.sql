-- Running balances only for available (spread over shards) and hold; customers, payouts and fees are the sums of
-- their entries from now on (store/ledger-repo.ts). drizzle-kit wrote these statements in an order PostgreSQL
-- refuses (the key before its column); they are put in order by hand, and the rows of the accounts without a
-- balance from now on are removed before the account CHECK.
ALTER TABLE "ledger_balances" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
DELETE FROM "ledger_balances" WHERE "account" NOT IN ('available', 'hold');--> statement-breakpoint
ALTER TABLE "ledger_balances" DROP CONSTRAINT "ledger_balances_merchant_id_environment_currency_account_pk";--> statement-breakpoint
ALTER TABLE "ledger_balances" ADD CONSTRAINT "ledger_balances_merchant_id_environment_currency_account_shard_pk" PRIMARY KEY("merchant_id","environment","currency","account","shard");--> statement-breakpoint
ALTER TABLE "ledger_balances" ADD CONSTRAINT "ledger_balances_account_check" CHECK ("ledger_balances"."account" in ('available', 'hold'));--> statement-breakpoint
ALTER TABLE "ledger_balances" ADD CONSTRAINT "ledger_balances_shard_check" CHECK ("ledger_balances"."shard" between 0 and 63 and ("ledger_balances"."account" = 'available' or "ledger_balances"."shard" = 0));
