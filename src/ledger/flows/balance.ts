import type { AuthenticatedMerchant } from '../../app-context.ts';
import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { Db } from '../../platform/database.ts';
import { readWallets, type Wallet } from '../store/ledger-repo.ts';

export type Balance = { wallets: Wallet[] } | { wallet: Wallet };

// The merchant's wallets in the key's environment, from the ledger's running balances (minor units). One currency:
// its wallet, zeros when it never moved; the code must be one Payrail knows (ISO 4217 or configured).
export async function getBalance(db: Db, currencies: CurrencyTable, scope: AuthenticatedMerchant, currency: string | null): Promise<Balance> {
  if (currency === null) return { wallets: await readWallets(db, scope) };
  assertKnownCurrency(currencies, currency);
  const [wallet] = await readWallets(db, scope, currency);
  return { wallet: wallet ?? { currency, available: 0, hold: 0 } };
}

// A wallet's currency must be one Payrail knows (the balance and the statement ask the same).
export function assertKnownCurrency(currencies: CurrencyTable, currency: string): void {
  if (!currencies.has(currency)) {
    throw new ApiError('invalid_field', 422, 'currency is not one Payrail knows', [
      { code: 'invalid_field', field: 'currency', message: `${currency} is not an ISO 4217 code or a configured currency` },
    ]);
  }
}
