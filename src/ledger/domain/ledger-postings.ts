// The double-entry rules: which balanced transaction each money event posts. Every posting is decided here and
// nowhere else; the store only writes what it is given (store/ledger-repo.ts), in the same database transaction
// as the status change that causes it.
//
// Accounts exist per merchant, environment and currency. Entries are signed minor units and every posting sums to
// zero. The merchant's own accounts hold what Payrail owes the merchant (credit positive):
//   available  money the merchant may pay out or refund from
//   hold       money reserved for a payout, refund or dispute until it settles
// Payrail's and the outside world's side of each movement:
//   fees       commissions Payrail earned from this merchant
//   customers  card holders (negative: money that came in from them)
//   payouts    payout recipients (positive: money sent to them)
// A core banking profile's accounts exist per profile and currency (wallet-postings.ts decides them):
//   wallet     the profile's money (never negative)
//   banks      banks and providers outside Payrail that transfers come from and go to
//   clearing   money between two profiles' wallets (a paid money charge): zero over all profiles

import { commissionFor, type CommissionTerms } from './commission.ts';

export const LEDGER_ACCOUNTS = ['available', 'hold', 'fees', 'customers', 'payouts', 'wallet', 'banks', 'clearing'] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

// Never below zero, whatever happens: the ledger check, and for hold a CHECK constraint on its balance row.
export const NON_NEGATIVE_ACCOUNTS: readonly LedgerAccount[] = Object.freeze(['hold', 'fees']);

// A merchant's accounts with a running balance row: those a posting may be refused on (available) or must not
// take below zero (hold). The others are the sums of their entries: nothing is decided on them while posting.
export const BALANCED_ACCOUNTS = ['available', 'hold'] as const satisfies readonly LedgerAccount[];

export const POSTING_KINDS = [
  'payment_captured', // a payment approved (or a two-step payment confirmed): customers → available + fees
  'payment_reversed', // a provider turned an approved payment into declined: the capture undone
  'payout_reserved', // a payout created: amount + commission from available into hold (refused if not there)
  'payout_sent', // a payout approved: the hold to the recipient and the commission to fees
  'payout_released', // a payout declined: the hold back to available
  'payout_returned', // a provider turned an approved payout into declined: the money back to available
  'refund_reserved', // a refund created: amount + commission from available into hold (refused if not there)
  'refund_sent', // a refund approved: the hold to the customer and the commission to fees
  'refund_released', // a refund declined: the hold back to available
  'dispute_held', // a dispute opened: the disputed amount from available into hold (refused if not there)
  'dispute_won', // the hold back to available
  'dispute_lost', // the hold to the customer
  'transfer_credited', // a bank transfer into a profile's wallet: banks → wallet
  'transfer_debited', // a bank transfer out of a profile's wallet: wallet → banks (refused if not there)
  'charge_paid', // a money charge paid, the payer's side: wallet → clearing (refused if not there)
  'charge_received', // a money charge paid, the requester's side: clearing → wallet
] as const;
export type PostingKind = (typeof POSTING_KINDS)[number];

// Postings that take money because its owner asked for it, and the account they take it from (a merchant's
// `available`, a profile's `wallet`): refused when it is not there.
const GUARDED_ACCOUNTS: ReadonlyMap<PostingKind, LedgerAccount> = new Map([
  ['payout_reserved', 'available'],
  ['refund_reserved', 'available'],
  ['dispute_held', 'available'],
  ['transfer_debited', 'wallet'],
  ['charge_paid', 'wallet'],
]);

export interface LedgerEntry {
  account: LedgerAccount;
  amountMinor: number; // signed, never zero
}

export interface LedgerPosting {
  kind: PostingKind;
  currency: string;
  entries: readonly LedgerEntry[]; // one per account, summing to zero
  guardedDebitMinor: number; // what must be in its guarded account (available, wallet) before it applies; 0: none
}

export class UnbalancedPostingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnbalancedPostingError';
  }
}

// Builds a posting and asserts what every posting must be: whole minor units, zero entries dropped, each account
// once, a zero sum. Exported for wallet-postings.ts, which decides a profile's postings.
export function posting(kind: PostingKind, currency: string, entries: readonly LedgerEntry[]): LedgerPosting {
  const kept = entries.filter((entry) => entry.amountMinor !== 0);
  const accounts = new Set<LedgerAccount>();
  let sum = 0;
  for (const entry of kept) {
    if (!Number.isSafeInteger(entry.amountMinor)) throw new UnbalancedPostingError(`${kind}: ${entry.amountMinor} is not a whole number of minor units`);
    if (accounts.has(entry.account)) throw new UnbalancedPostingError(`${kind}: account ${entry.account} appears twice`);
    accounts.add(entry.account);
    sum += entry.amountMinor;
  }
  if (sum !== 0) throw new UnbalancedPostingError(`${kind}: entries sum to ${sum}, not 0`);
  if (kept.length === 0) throw new UnbalancedPostingError(`${kind}: a posting moves money`);
  const guarded = kept.find((entry) => entry.account === GUARDED_ACCOUNTS.get(kind));
  const guardedDebitMinor = guarded !== undefined && guarded.amountMinor < 0 ? -guarded.amountMinor : 0;
  return Object.freeze({ kind, currency, entries: Object.freeze(kept), guardedDebitMinor });
}

// What one money movement is worth: its amount and the commission charged on it.
export interface Charge {
  amountMinor: number;
  commissionMinor: number;
  currency: string;
}

export function chargeOf(amountMinor: number, currency: string, terms: CommissionTerms): Charge {
  return { amountMinor, commissionMinor: commissionFor(amountMinor, terms), currency };
}

export function paymentCaptured(charge: Charge): LedgerPosting {
  const { amountMinor: amount, commissionMinor: fee, currency } = charge;
  return posting('payment_captured', currency, [
    { account: 'customers', amountMinor: -amount },
    { account: 'available', amountMinor: amount - fee },
    { account: 'fees', amountMinor: fee },
  ]);
}

// Undoes a capture, less what refunds already gave back to the customer (those left through their own postings):
// the customer gets the rest, the merchant returns it without the commission, and the commission is given back.
export function paymentReversed(charge: Charge, refundedMinor = 0): LedgerPosting {
  const { amountMinor: amount, commissionMinor: fee, currency } = charge;
  if (!Number.isSafeInteger(refundedMinor) || refundedMinor < 0 || refundedMinor > amount) {
    throw new UnbalancedPostingError(`payment_reversed: refunded ${refundedMinor} is outside 0..${amount}`);
  }
  const returned = amount - refundedMinor;
  return posting('payment_reversed', currency, [
    { account: 'customers', amountMinor: returned },
    { account: 'available', amountMinor: -(returned - fee) },
    { account: 'fees', amountMinor: -fee },
  ]);
}

// A payout, a refund or a dispute first reserves its money, then either sends it or releases it.
function reserved(kind: 'payout_reserved' | 'refund_reserved' | 'dispute_held', charge: Charge): LedgerPosting {
  const total = charge.amountMinor + charge.commissionMinor;
  return posting(kind, charge.currency, [
    { account: 'available', amountMinor: -total },
    { account: 'hold', amountMinor: total },
  ]);
}

function released(kind: 'payout_released' | 'refund_released' | 'dispute_won', charge: Charge): LedgerPosting {
  const total = charge.amountMinor + charge.commissionMinor;
  return posting(kind, charge.currency, [
    { account: 'hold', amountMinor: -total },
    { account: 'available', amountMinor: total },
  ]);
}

function sent(kind: 'payout_sent' | 'refund_sent' | 'dispute_lost', to: 'payouts' | 'customers', charge: Charge): LedgerPosting {
  return posting(kind, charge.currency, [
    { account: 'hold', amountMinor: -(charge.amountMinor + charge.commissionMinor) },
    { account: to, amountMinor: charge.amountMinor },
    { account: 'fees', amountMinor: charge.commissionMinor },
  ]);
}

export const payoutReserved = (charge: Charge) => reserved('payout_reserved', charge);
export const payoutSent = (charge: Charge) => sent('payout_sent', 'payouts', charge);
export const payoutReleased = (charge: Charge) => released('payout_released', charge);
export const refundReserved = (charge: Charge) => reserved('refund_reserved', charge);
export const refundSent = (charge: Charge) => sent('refund_sent', 'customers', charge);
export const refundReleased = (charge: Charge) => released('refund_released', charge);
// Disputes carry no commission: the whole disputed amount is held, and returned or lost whole.
export const disputeHeld = (amountMinor: number, currency: string) => reserved('dispute_held', { amountMinor, commissionMinor: 0, currency });
export const disputeWon = (amountMinor: number, currency: string) => released('dispute_won', { amountMinor, commissionMinor: 0, currency });
export const disputeLost = (amountMinor: number, currency: string) => sent('dispute_lost', 'customers', { amountMinor, commissionMinor: 0, currency });

export function payoutReturned(charge: Charge): LedgerPosting {
  return posting('payout_returned', charge.currency, [
    { account: 'payouts', amountMinor: -charge.amountMinor },
    { account: 'fees', amountMinor: -charge.commissionMinor },
    { account: 'available', amountMinor: charge.amountMinor + charge.commissionMinor },
  ]);
}
