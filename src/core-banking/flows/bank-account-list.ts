import { resolveListedProfile } from './acting-profile.ts';
import { normalizeAccountValue } from '../domain/bank-account-rules.ts';
import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import { majorUnitsOf } from '../domain/wallet-amount.ts';
import type { BankAccountRow } from '../store/bank-accounts-repo.ts';
import {
  anyBankAccount,
  cardsOfBankAccounts,
  listBankAccounts as selectBankAccounts,
  walletBalancesMinor,
  type AccountCard,
  type BankAccountFilter,
} from '../store/bank-account-list-repo.ts';
import type { Db } from '../../platform/database.ts';

export const BANK_ACCOUNT_PAGE_SIZE = 20;
export const BANK_ACCOUNT_PAGE_MAX = 1000;

export interface BankAccountListRequest extends Omit<BankAccountFilter, 'profileId'> {
  onlyCheck?: boolean | undefined;
  withWallet?: boolean | undefined;
  withCards?: boolean | undefined;
  page: number;
}

export interface ListedBankAccount extends BankAccountRow {
  cards?: AccountCard[];
  walletAvailable?: number; // major units (spec 2.6 wallet.available)
}

export type BankAccountListing = { onlyCheck: true; exists: boolean } | { onlyCheck: false; records: ListedBankAccount[] };

// Whose accounts a listing shows: the profile acted as (already resolved), or another it names (profile_id) that
// the person may see (403 otherwise).
export interface ListedProfile {
  userId: number;
  actingProfileId: number;
  profileId: number | undefined;
}

// GET /api/v1/bank_accounts/list for one profile. only_check answers whether any record matches; otherwise a page
// of 20, oldest first.
export async function listProfileBankAccounts(
  deps: { db: Db; currencies: CurrencyTable },
  listed: ListedProfile,
  request: BankAccountListRequest,
): Promise<BankAccountListing> {
  const profileId = await resolveListedProfile(deps.db, listed.userId, listed.actingProfileId, listed.profileId);
  const { onlyCheck, withWallet, withCards, page, ...filters } = request;
  const filter: BankAccountFilter = {
    ...filters,
    profileId,
    value: filters.value === undefined ? undefined : normalizeAccountValue(filters.value),
    currency: filters.currency?.toUpperCase(),
  };
  if (onlyCheck === true) return { onlyCheck: true, exists: await anyBankAccount(deps.db, filter) };
  const rows = await selectBankAccounts(deps.db, filter, { limit: BANK_ACCOUNT_PAGE_SIZE, offset: (page - 1) * BANK_ACCOUNT_PAGE_SIZE });
  const records: ListedBankAccount[] = rows.map((row) => ({ ...row }));
  if (withCards === true) {
    const cards = await cardsOfBankAccounts(
      deps.db,
      rows.map((row) => row.id),
    );
    for (const record of records) record.cards = cards.get(record.id) ?? [];
  }
  if (withWallet === true) {
    const balances = await walletBalancesMinor(deps.db, profileId, [...new Set(rows.map((row) => row.currency))]);
    for (const record of records) {
      const exponent = deps.currencies.get(record.currency) ?? 2; // a currency dropped from the configuration since
      record.walletAvailable = majorUnitsOf(balances.get(record.currency) ?? 0, exponent);
    }
  }
  return { onlyCheck: false, records };
}
