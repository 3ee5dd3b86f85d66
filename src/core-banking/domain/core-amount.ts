import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import { decimalToMinor, minorToMajor, type DecimalAmountProblem } from './decimal-amount.ts';
import { WALLET_AMOUNT_MINOR_MAX } from './wallet-postings.ts';
import { CoreApiError } from '../../platform/lib/core-errors.ts';

// A core banking request's failure about one of its fields: 422 in spec 7.2's envelope, with the field named.
export function coreFieldError(code: string, field: string, message: string, status = 422): CoreApiError {
  return new CoreApiError(code, status, message, [{ code, kind: 'validation', field, message }]);
}

const PROBLEM_TEXT: Readonly<Record<DecimalAmountProblem, string>> = {
  not_a_number: 'is not a finite number',
  not_positive: 'must be above zero',
  too_many_decimals: 'has more decimals than the currency allows',
  too_large: 'is too large',
};

// The exponent of a currency Payrail knows (ISO 4217 or configured), else 422 on `field`.
export function exponentOf(currencies: CurrencyTable, currency: string, field = 'currency'): number {
  const exponent = currencies.get(currency);
  if (exponent === undefined) throw coreFieldError('invalid_field', field, `${currency} is not an ISO 4217 code or a configured currency`);
  return exponent;
}

// A core banking amount (major units, a JSON number) in minor units of its currency, exactly, within the limit of
// one wallet movement; 422 on `amount` otherwise.
export function coreAmountMinor(currencies: CurrencyTable, amount: number, currency: string): number {
  const exponent = exponentOf(currencies, currency);
  const converted = decimalToMinor(amount, exponent);
  if (!converted.ok) {
    const code = converted.problem === 'too_many_decimals' ? 'too_many_decimals' : 'invalid_amount';
    throw coreFieldError(code, 'amount', `amount ${PROBLEM_TEXT[converted.problem]} (${currency} has ${exponent} decimals)`);
  }
  if (converted.amountMinor > WALLET_AMOUNT_MINOR_MAX) {
    const most = minorToMajor(WALLET_AMOUNT_MINOR_MAX, exponent);
    throw coreFieldError('amount_too_large', 'amount', `amount is above the limit of ${most} ${currency} per transfer or charge`);
  }
  return converted.amountMinor;
}
