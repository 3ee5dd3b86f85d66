import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { BalanceKey, CommissionDay, LedgerEnvironment, MerchantBalance } from '../domain/ledger-overview.ts';
import type { Db } from '../../platform/database.ts';
import { ledgerBalances, ledgerEntries, ledgerTransactions } from './schema.ts';

// Reads across every merchant for the operator console (ledger flows/ledger-overview.ts bounds them).

// Available and hold per merchant, environment and currency, in key order after `after` (the primary key's order).
export async function readMerchantBalances(db: Db, query: { merchantId: number | null; after: BalanceKey | null; limit: number }): Promise<MerchantBalance[]> {
  const conditions: SQL[] = [];
  if (query.merchantId !== null) conditions.push(eq(ledgerBalances.merchantId, query.merchantId));
  if (query.after !== null) {
    const { merchantId, environment, currency } = query.after;
    conditions.push(
      sql`(${ledgerBalances.merchantId}, ${ledgerBalances.environment}, ${ledgerBalances.currency}) > (${merchantId}, ${environment}, ${currency})`,
    );
  }
  const rows = await db
    .select({
      merchantId: ledgerBalances.merchantId,
      environment: ledgerBalances.environment,
      currency: ledgerBalances.currency,
      available: sql<string>`coalesce(sum(${ledgerBalances.balanceMinor}) filter (where ${ledgerBalances.account} = 'available'), 0)::text`,
      hold: sql<string>`coalesce(sum(${ledgerBalances.balanceMinor}) filter (where ${ledgerBalances.account} = 'hold'), 0)::text`,
    })
    .from(ledgerBalances)
    .where(and(...conditions))
    .groupBy(ledgerBalances.merchantId, ledgerBalances.environment, ledgerBalances.currency)
    .orderBy(asc(ledgerBalances.merchantId), asc(ledgerBalances.environment), asc(ledgerBalances.currency))
    .limit(query.limit);
  return rows.map((row) => ({ ...row, availableMinor: Number(row.available), holdMinor: Number(row.hold) }));
}

// The first transaction id a bounded scan reads, and when that transaction was written (null: no transactions).
export async function scanStartOf(db: Db, transactionsMax: number): Promise<{ firstId: number; firstAt: Date | null; wholeTable: boolean }> {
  const [newest] = await db.select({ id: sql<string | null>`max(${ledgerTransactions.id})::text` }).from(ledgerTransactions);
  const floor = Number(newest?.id ?? 0) - transactionsMax;
  const [first] = await db
    .select({ id: ledgerTransactions.id, createdAt: ledgerTransactions.createdAt })
    .from(ledgerTransactions)
    .where(gt(ledgerTransactions.id, floor))
    .orderBy(asc(ledgerTransactions.id))
    .limit(1);
  return { firstId: first?.id ?? 0, firstAt: first?.createdAt ?? null, wholeTable: floor <= 0 };
}

// What the merchants' `fees` accounts gained per UTC day and currency, over transactions from `firstId` on.
export async function sumFeesPerDay(db: Db, query: { environment: LedgerEnvironment; from: Date; to: Date; firstId: number }): Promise<CommissionDay[]> {
  const day = sql<string>`to_char(${ledgerTransactions.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({ day, currency: ledgerTransactions.currency, fees: sql<string>`sum(${ledgerEntries.amountMinor})::text` })
    .from(ledgerTransactions)
    .innerJoin(ledgerEntries, and(eq(ledgerEntries.transactionId, ledgerTransactions.id), eq(ledgerEntries.account, 'fees')))
    .where(
      and(
        sql`${ledgerTransactions.id} >= ${query.firstId}`,
        sql`${ledgerTransactions.merchantId} is not null`,
        eq(ledgerTransactions.environment, query.environment),
        sql`${ledgerTransactions.createdAt} >= ${query.from.toISOString()}::timestamptz`,
        sql`${ledgerTransactions.createdAt} < ${query.to.toISOString()}::timestamptz`,
      ),
    )
    .groupBy(day, ledgerTransactions.currency)
    .orderBy(sql`1 desc`, asc(ledgerTransactions.currency));
  return rows.map((row) => ({ day: row.day, currency: row.currency, feesMinor: Number(row.fees) }));
}
