// Core banking amounts arrive as JSON numbers in major units (spec 4: `amount (number, double)`). They become minor
// units here, once, at the edge (ARCHITECTURE principle 2), without floating point arithmetic: the number's
// shortest round-trip decimal text (String(n)) is read digit by digit and shifted by the currency's exponent.
//
// Exactness: an amount of m minor units with m < 2^52 (4.5 × 10^15; every flow's limit is far below) that the
// client wrote with at most `exponent` decimals is read back as exactly m: a double's rounding interval there is
// narrower than the step between such decimals, so String(n) gives back what the client wrote. Text that was
// already lost in parsing (0.30000000000000001 parses as 0.3) is beyond any JSON number's reach.

import { AMOUNT_MINOR_MAX } from '../../platform/lib/limits.ts';

export type DecimalAmountProblem =
  | 'not_a_number' // NaN or ±Infinity
  | 'not_positive' // zero or below
  | 'too_many_decimals' // more decimals than the currency's exponent allows
  | 'too_large'; // above AMOUNT_MINOR_MAX minor units

export type DecimalAmount = { ok: true; amountMinor: number } | { ok: false; problem: DecimalAmountProblem };

// 1, 0.1, 123.456, 1e-7, 1.5e+21: what String() makes of a positive finite number.
const NUMBER_TEXT = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

export function decimalToMinor(amount: number, exponent: number): DecimalAmount {
  if (!Number.isInteger(exponent) || exponent < 0) throw new RangeError(`currency exponent ${exponent} is not a whole number ≥ 0`);
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return { ok: false, problem: 'not_a_number' };
  if (!(amount > 0)) return { ok: false, problem: 'not_positive' };
  const match = NUMBER_TEXT.exec(String(amount));
  if (!match) return { ok: false, problem: 'not_a_number' }; // unreachable for a positive finite number
  const [, whole = '', fraction = '', power = '0'] = match;
  // The number is 0.<digits> × 10^pointAt, with no leading or trailing zeros in digits.
  let digits = `${whole}${fraction}`;
  let pointAt = whole.length + Number(power);
  const leading = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(leading);
  pointAt -= leading;
  digits = digits.replace(/0+$/, '');
  const decimals = Math.max(0, digits.length - pointAt);
  if (decimals > exponent) return { ok: false, problem: 'too_many_decimals' };
  // Whole minor units: digits followed by as many zeros as the point moves right past them.
  const zeros = pointAt + exponent - digits.length;
  if (digits.length + zeros > String(AMOUNT_MINOR_MAX).length) return { ok: false, problem: 'too_large' };
  const minor = BigInt(`${digits}${'0'.repeat(zeros)}`);
  if (minor > BigInt(AMOUNT_MINOR_MAX)) return { ok: false, problem: 'too_large' };
  return { ok: true, amountMinor: Number(minor) };
}

// The exact decimal text of a minor amount: 12345 with exponent 2 is "123.45", 5 is "0.05", -7 is "-0.07".
export function minorToDecimalText(amountMinor: number, exponent: number): string {
  if (!Number.isSafeInteger(amountMinor)) throw new RangeError(`${amountMinor} is not a whole number of minor units`);
  if (!Number.isInteger(exponent) || exponent < 0) throw new RangeError(`currency exponent ${exponent} is not a whole number ≥ 0`);
  const sign = amountMinor < 0 ? '-' : '';
  const digits = String(Math.abs(amountMinor)).padStart(exponent + 1, '0');
  if (exponent === 0) return `${sign}${digits}`;
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent).replace(/0+$/, '');
  return fraction === '' ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}

// A minor amount in major units as a JSON number (spec 2.6: wallet.available is a double): the double nearest to
// its exact decimal, read from text, never computed by division.
export function minorToMajor(amountMinor: number, exponent: number): number {
  return Number(minorToDecimalText(amountMinor, exponent));
}
