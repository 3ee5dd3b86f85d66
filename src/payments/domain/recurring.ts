import type { CreatePaymentRequest, FieldError } from './payment-request.ts';
import type { RecurringData } from './payment-data.ts';

// Recurring payments (spec 2.1 recurring, recurringToken, walletToken, recurring_data): the rules a create request
// and a charge of a series must keep. Pure: the caller gives the clock.

const DAY_MS = 24 * 60 * 60 * 1000;

// recurring_data.exp_date (YYYYMMDD, a real date: the schema checked it) is valid through the end of that UTC day.
export function seriesEndsAt(expDate: string): Date {
  const year = Number(expDate.slice(0, 4));
  const month = Number(expDate.slice(4, 6));
  const day = Number(expDate.slice(6, 8));
  const endsAt = new Date(0);
  endsAt.setUTCFullYear(year, month - 1, day + 1);
  return endsAt;
}

function invalid(field: string, message: string): FieldError {
  return { code: 'invalid_field', field, message };
}

// What the fields of one create request must agree on beyond each field's own rules (spec 2.1): a payment either
// starts a series (recurring: true, with optional recurring_data) or charges one (recurringToken or walletToken,
// with the card on file), never both, and never with card data of its own.
export function recurringRequestErrors(request: CreatePaymentRequest, now: Date): FieldError[] {
  const errors: FieldError[] = [];
  const tokenName = request.recurringToken !== null ? 'recurringToken' : request.walletToken !== null ? 'walletToken' : null;
  if (request.recurringToken !== null && request.walletToken !== null) {
    errors.push(invalid('walletToken', 'send recurringToken or walletToken, not both'));
  }
  if (tokenName !== null) {
    if (request.recurring) errors.push(invalid('recurring', `a payment charged with a ${tokenName} cannot start another series`));
    if (request.card !== null) errors.push(invalid('card', `a payment with a ${tokenName} is charged to the card on file; send no card`));
    if (request.bankAccount !== null)
      errors.push(invalid('bank_account', `a payment with a ${tokenName} is charged to the card on file; send no bank_account`));
  }
  if (request.recurringData !== null && !request.recurring) {
    errors.push(invalid('recurring_data', 'goes with recurring: true, on the first payment of a series'));
  } else if (request.recurringData !== null && now.getTime() >= seriesEndsAt(request.recurringData.expDate).getTime()) {
    errors.push(invalid('recurring_data.exp_date', 'has passed: the series would end before it starts'));
  }
  return errors;
}

export interface SeriesState {
  recurringData: RecurringData | null; // the first payment's: no days, no exp_date → no bound
  lastChargeAt: Date | null; // the last charge of the series; its first payment's approval before any other
}

export type SeriesChargeDecision =
  | { allowed: true }
  | { allowed: false; code: 'recurring_expired' | 'recurring_too_soon'; message: string; nextChargeAt: Date | null };

// Whether the series may be charged now: not after recurring_data.exp_date, and not sooner than recurring_data.days
// days after its last charge.
export function decideSeriesCharge(series: SeriesState, now: Date): SeriesChargeDecision {
  const data = series.recurringData;
  if (data === null) return { allowed: true };
  const endsAt = seriesEndsAt(data.expDate);
  if (now.getTime() >= endsAt.getTime()) {
    return { allowed: false, code: 'recurring_expired', message: `the series ended with its recurring_data.exp_date ${data.expDate}`, nextChargeAt: null };
  }
  if (series.lastChargeAt === null) return { allowed: true };
  const nextChargeAt = new Date(series.lastChargeAt.getTime() + data.days * DAY_MS);
  if (now.getTime() >= nextChargeAt.getTime()) return { allowed: true };
  if (nextChargeAt.getTime() >= endsAt.getTime()) {
    const message = `the series allows one charge every ${data.days} days and ends (exp_date ${data.expDate}) before the next one is due`;
    return { allowed: false, code: 'recurring_too_soon', message, nextChargeAt: null };
  }
  const message = `the series allows one charge every ${data.days} days; the next one from ${nextChargeAt.toISOString()}`;
  return { allowed: false, code: 'recurring_too_soon', message, nextChargeAt };
}
