import {
  BALANCE_ROWS_PER_PAGE_MAX,
  balanceCursorOf,
  balanceKeyOf,
  checkedCommissionDays,
  COMMISSION_TRANSACTIONS_SCANNED_MAX,
  type CommissionDay,
  type LedgerEnvironment,
  type MerchantBalance,
} from '../domain/ledger-overview.ts';
import type { Db } from '../../platform/database.ts';
import { readMerchantBalances, scanStartOf, sumFeesPerDay } from '../store/ledger-overview-repo.ts';

export interface MerchantBalancePage {
  balances: MerchantBalance[];
  nextCursor: string | null;
}

// Every merchant's wallets (both environments), one keyset page at a time; merchantId narrows them to one merchant.
export async function listMerchantBalances(db: Db, query: { merchantId: number | null; cursor: string | null; limit: number }): Promise<MerchantBalancePage> {
  const limit = Math.max(1, Math.min(query.limit, BALANCE_ROWS_PER_PAGE_MAX));
  const after = query.cursor === null ? null : balanceKeyOf(query.cursor);
  const rows = await readMerchantBalances(db, { merchantId: query.merchantId, after, limit: limit + 1 });
  const balances = rows.slice(0, limit);
  const last = balances.at(-1);
  return { balances, nextCursor: rows.length > limit && last ? balanceCursorOf(last) : null };
}

export interface CommissionsEarned {
  days: CommissionDay[]; // newest day first
  coveredFrom: Date | null; // null: the whole range was read; else the figures start at this instant
}

// The commissions Payrail earned per UTC day and currency in one environment: what the merchants' `fees` accounts
// gained (a reversal gives its commission back, so a day may be negative).
export async function commissionsEarnedPerDay(db: Db, query: { environment: LedgerEnvironment; fromDay: string; toDay: string }): Promise<CommissionsEarned> {
  const range = checkedCommissionDays(query.fromDay, query.toDay);
  const scan = await scanStartOf(db, COMMISSION_TRANSACTIONS_SCANNED_MAX);
  const days = await sumFeesPerDay(db, { environment: query.environment, ...range, firstId: scan.firstId });
  const partial = !scan.wholeTable && scan.firstAt !== null && scan.firstAt > range.from;
  return { days, coveredFrom: partial ? scan.firstAt : null };
}
