import { sql } from 'drizzle-orm';
import type { LedgerAccount } from '../../src/ledger/domain/ledger-postings.ts';
import type { DbOrTx } from '../../src/platform/database.ts';

export type MerchantAccounts = Record<'available' | 'hold' | 'fees' | 'customers' | 'payouts', number>;

// A merchant wallet's accounts as the sums of their ledger entries (customers, payouts and fees have no balance
// rows); throws when the running balance of available or hold (over its shards) disagrees with its entries.
export async function merchantAccounts(db: DbOrTx, merchantId: number, environment: 'sandbox' | 'production', currency: string): Promise<MerchantAccounts> {
  const entries = (await db.execute(sql`
    select e.account, sum(e.amount_minor)::text as total from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
    where t.merchant_id = ${merchantId} and t.environment = ${environment} and t.currency = ${currency} group by e.account`)) as unknown as {
    rows: { account: LedgerAccount; total: string }[];
  };
  const balances = (await db.execute(sql`
    select account, sum(balance_minor)::text as total from ledger_balances
    where merchant_id = ${merchantId} and environment = ${environment} and currency = ${currency} group by account`)) as unknown as {
    rows: { account: LedgerAccount; total: string }[];
  };
  const accounts: MerchantAccounts = { available: 0, hold: 0, fees: 0, customers: 0, payouts: 0 };
  for (const row of entries.rows) accounts[row.account as keyof MerchantAccounts] = Number(row.total);
  for (const row of balances.rows) {
    const stored = Number(row.total);
    if (stored !== accounts[row.account as keyof MerchantAccounts]) {
      throw new Error(`${row.account} of merchant ${merchantId} is ${stored} but its entries sum to ${accounts[row.account as keyof MerchantAccounts]}`);
    }
  }
  return accounts;
}
