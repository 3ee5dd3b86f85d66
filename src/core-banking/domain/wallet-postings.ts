// The double-entry rules of a core banking profile's wallet (accounts in ledger-postings.ts). A profile's accounts
// exist per profile and currency; the wallet holds what the profile owns (credit positive, never negative):
//   transfer_credited  a bank or provider paid into the wallet:        banks → wallet
//   transfer_debited   the wallet paid out to a bank or provider:      wallet → banks (refused if not there)
//   charge_paid        the payer's side of a paid money charge:        wallet → clearing (refused if not there)
//   charge_received    the requester's side of the same charge:        clearing → wallet
// A paid charge posts charge_paid on the payer and charge_received on the requester in one database transaction,
// so clearing sums to zero over all profiles.

import { posting, UnbalancedPostingError, type LedgerPosting } from '../../ledger/index.ts';

// The most a single transfer or charge may move, in minor units: far below 2^52, so its decimal form always arrives
// exactly (decimal-amount.ts) and sums of many stay exact.
export const WALLET_AMOUNT_MINOR_MAX = 10_000_000_000_000;

function assertAmount(kind: string, amountMinor: number): void {
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0 || amountMinor > WALLET_AMOUNT_MINOR_MAX) {
    throw new UnbalancedPostingError(`${kind}: ${amountMinor} is not a whole amount of minor units in 1..${WALLET_AMOUNT_MINOR_MAX}`);
  }
}

export function transferCredited(amountMinor: number, currency: string): LedgerPosting {
  assertAmount('transfer_credited', amountMinor);
  return posting('transfer_credited', currency, [
    { account: 'banks', amountMinor: -amountMinor },
    { account: 'wallet', amountMinor },
  ]);
}

export function transferDebited(amountMinor: number, currency: string): LedgerPosting {
  assertAmount('transfer_debited', amountMinor);
  return posting('transfer_debited', currency, [
    { account: 'wallet', amountMinor: -amountMinor },
    { account: 'banks', amountMinor },
  ]);
}

export function chargePaid(amountMinor: number, currency: string): LedgerPosting {
  assertAmount('charge_paid', amountMinor);
  return posting('charge_paid', currency, [
    { account: 'wallet', amountMinor: -amountMinor },
    { account: 'clearing', amountMinor },
  ]);
}

export function chargeReceived(amountMinor: number, currency: string): LedgerPosting {
  assertAmount('charge_received', amountMinor);
  return posting('charge_received', currency, [
    { account: 'clearing', amountMinor: -amountMinor },
    { account: 'wallet', amountMinor },
  ]);
}

export function transferPosting(direction: 'credit' | 'debit', amountMinor: number, currency: string): LedgerPosting {
  return direction === 'credit' ? transferCredited(amountMinor, currency) : transferDebited(amountMinor, currency);
}
