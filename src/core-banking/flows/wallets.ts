import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import { minorToMajor } from '../domain/decimal-amount.ts';
import type { Db } from '../../platform/database.ts';
import { readWalletBalances } from '../../ledger/index.ts';
import { exponentOf } from '../domain/core-amount.ts';

export interface WalletView {
  currency: string;
  available: number; // major units (spec 2.6: wallet.available is a double)
  available_minor: number;
}

// GET /api/v1/wallets: the signed-in user's wallets, one per currency that ever moved; with a currency, that one
// alone (zero when it never moved; the code must be one Payrail knows).
export async function getUserWallets(db: Db, currencies: CurrencyTable, profileId: number, currency: string | null): Promise<WalletView[]> {
  if (currency !== null) exponentOf(currencies, currency);
  const balances = await readWalletBalances(db, profileId, currency);
  if (currency !== null && balances.length === 0) balances.push({ currency, availableMinor: 0 });
  return balances.map(({ currency: code, availableMinor }) => ({
    currency: code,
    available: minorToMajor(availableMinor, exponentOf(currencies, code)),
    available_minor: availableMinor,
  }));
}
