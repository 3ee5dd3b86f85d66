// Amounts as people type them in the dashboard's forms ("12.50") and as its exports write them: decimal text in
// the currency's major units, exactly, without floating point (ARCHITECTURE principle 2), converted at the edge.

const AMOUNT_TEXT = /^([0-9]{1,16})(?:[.,]([0-9]*))?$/;

export type AmountInput = { ok: true; amountMinor: number } | { ok: false; message: string };

// A positive amount with at most `exponent` decimals (a comma counts as the decimal mark), as minor units.
export function parseAmountInput(text: string, exponent: number, currency: string): AmountInput {
  const match = AMOUNT_TEXT.exec(text.trim());
  if (!match) return { ok: false, message: 'write the amount as digits, e.g. 12.50' };
  const [, whole = '', fraction = ''] = match;
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > exponent) {
    return { ok: false, message: exponent === 0 ? `${currency} has no decimals` : `${currency} has at most ${exponent} decimals` };
  }
  const minor = BigInt(whole + trimmed.padEnd(exponent, '0'));
  if (minor <= 0n) return { ok: false, message: 'the amount must be above zero' };
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, message: 'the amount is too large' };
  return { ok: true, amountMinor: Number(minor) };
}

// The exact decimal text of a signed minor amount, no grouping: 12345 with exponent 2 is "123.45", -5 is "-0.05".
export function decimalTextOf(amountMinor: number, exponent: number): string {
  if (!Number.isSafeInteger(amountMinor)) throw new RangeError(`${amountMinor} is not a whole number of minor units`);
  const sign = amountMinor < 0 ? '-' : '';
  const digits = String(Math.abs(amountMinor)).padStart(exponent + 1, '0');
  return exponent === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}
