import { maskPan as maskCardNumber } from '@payrail/adapter-kit';

// PAN is kept only as first 6 / last 4 (ARCHITECTURE principle 5); what is stored must be a whole card number.
export function maskPan(panDigits: string): string {
  if (!/^\d{12,19}$/.test(panDigits)) throw new Error('PAN must be 12..19 digits');
  return maskCardNumber(panDigits);
}
