// A wallet amount for display in major units (spec 2.6 `wallet.available`, a double): built from the decimal
// digits of the minor-unit integer, so 1999 with exponent 2 is exactly the double nearest 19.99.
export function majorUnitsOf(amountMinor: number, exponent: number): number {
  if (!Number.isSafeInteger(amountMinor)) throw new Error('a minor-unit amount is a safe integer');
  if (exponent === 0) return amountMinor;
  const digits = Math.abs(amountMinor)
    .toString()
    .padStart(exponent + 1, '0');
  const sign = amountMinor < 0 ? '-' : '';
  return Number(`${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`);
}
