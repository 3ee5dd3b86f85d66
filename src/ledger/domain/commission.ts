// A merchant's commission for one operation: a percentage of the amount plus a fixed part, both charged in the
// operation's currency. The percentage is kept in hundredths of a percent (basis points: 2.5 % = 250) so every
// sum stays an integer of minor units.

import { AMOUNT_MINOR_MAX } from '../../platform/lib/limits.ts';

export const COMMISSION_OPERATIONS = ['pay', 'payout', 'refund'] as const;
export type CommissionOperation = (typeof COMMISSION_OPERATIONS)[number];

export const COMMISSION_PERCENT_BP_MAX = 10_000; // 100 %
export const COMMISSION_FIXED_MINOR_MAX = 1_000_000_000_000; // 10^12 minor units: far above any fee, far below 2^53

export interface CommissionTerms {
  percentBp: number; // 0..10,000
  fixedMinor: number; // 0..10^12
}

export const NO_COMMISSION: CommissionTerms = Object.freeze({ percentBp: 0, fixedMinor: 0 });

export function assertCommissionTerms(terms: CommissionTerms): void {
  if (!Number.isInteger(terms.percentBp) || terms.percentBp < 0 || terms.percentBp > COMMISSION_PERCENT_BP_MAX) {
    throw new Error(`commission percentBp ${terms.percentBp} is outside 0..${COMMISSION_PERCENT_BP_MAX}`);
  }
  if (!Number.isSafeInteger(terms.fixedMinor) || terms.fixedMinor < 0 || terms.fixedMinor > COMMISSION_FIXED_MINOR_MAX) {
    throw new Error(`commission fixedMinor ${terms.fixedMinor} is outside 0..${COMMISSION_FIXED_MINOR_MAX}`);
  }
}

// The commission on an amount: the percentage rounded half up to a whole minor unit, plus the fixed part.
// BigInt, so amount × basis points never loses a unit however large the amount.
export function commissionFor(amountMinor: number, terms: CommissionTerms): number {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) throw new Error(`amount ${amountMinor} is not a whole non-negative number of minor units`);
  assertCommissionTerms(terms);
  const scaled = BigInt(amountMinor) * BigInt(terms.percentBp);
  const percentPart = (scaled + 5_000n) / 10_000n;
  const total = percentPart + BigInt(terms.fixedMinor);
  if (total > BigInt(AMOUNT_MINOR_MAX)) throw new Error('commission exceeds the largest safe integer');
  return Number(total);
}

// "2.5" ↔ 250 basis points: what the admin API accepts and shows (at most two decimals).
export function percentToBasisPoints(percent: number): number | null {
  const basisPoints = Math.round(percent * 100);
  if (!Number.isFinite(percent) || percent < 0 || basisPoints > COMMISSION_PERCENT_BP_MAX) return null;
  return Math.abs(basisPoints - percent * 100) < 1e-6 ? basisPoints : null;
}

export function basisPointsToPercent(basisPoints: number): number {
  return basisPoints / 100;
}

// The commission on a captured payment: never more than the payment itself, so a capture never takes money from
// the merchant's balance (a 10-cent payment with a 30-cent fixed fee pays 10 cents).
export function payCommissionFor(amountMinor: number, terms: CommissionTerms): number {
  return Math.min(amountMinor, commissionFor(amountMinor, terms));
}
