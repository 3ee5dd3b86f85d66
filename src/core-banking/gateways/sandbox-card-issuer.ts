import { createHmac, randomBytes } from 'node:crypto';
import { maskPan } from '../../platform/lib/pan.ts';
import type { CardIssuer, CardIssueOutcome, CardIssueRequest, FullCardData, IssuedCardReference } from './card-issuer.ts';

// The built-in sandbox card issuer. It stores nothing: a card's number and CVV are an HMAC of its outer id under a
// key derived from the master key, so the same card always shows the same data and no database row, log or backup
// ever holds them. Its rules, for tests and demos:
//   - holder_last_name "Decline" (any case) → the application is rejected: SANDBOX_DECLINE_REASON;
//   - otherwise the card is issued: a 16-digit Visa-range number under the sandbox BIN 400000 (valid Luhn),
//     a 3-digit CVV, expiry in the issuing month three years ahead;
//   - a PIN of four digits is accepted and forgotten (Payrail records only when it was set).

export const SANDBOX_CARD_ISSUER_NAME = 'sandbox';
const SANDBOX_CARD_BIN = '400000';
const SANDBOX_DECLINE_LAST_NAME = 'decline';
export const SANDBOX_DECLINE_REASON = 'issuer declined the application';
const CARD_VALIDITY_YEARS = 3;
const OUTER_ID_RANDOM_BYTES = 12;
const PAN_LENGTH = 16;

export function createSandboxCardIssuer(masterKey: Buffer, clock: () => Date = () => new Date()): CardIssuer {
  // A key of its own, so card data says nothing about the master key or any other derived key.
  const cardKey = createHmac('sha256', masterKey).update('payrail sandbox card issuer v1').digest();
  const derive = (purpose: string, outerId: string) => createHmac('sha256', cardKey).update(`${purpose}:${outerId}`).digest();

  const panOf = (outerId: string): string => {
    const accountDigits = PAN_LENGTH - SANDBOX_CARD_BIN.length - 1;
    const account = (derive('pan', outerId).readBigUInt64BE(0) % 10n ** BigInt(accountDigits)).toString().padStart(accountDigits, '0');
    const body = SANDBOX_CARD_BIN + account;
    return body + luhnCheckDigit(body);
  };
  const cvvOf = (outerId: string): string => (derive('cvv', outerId).readUInt32BE(0) % 1000).toString().padStart(3, '0');

  return {
    name: SANDBOX_CARD_ISSUER_NAME,

    async issue(request: CardIssueRequest): Promise<CardIssueOutcome> {
      if (request.holderLastName.trim().toLowerCase() === SANDBOX_DECLINE_LAST_NAME) return { outcome: 'rejected', reason: SANDBOX_DECLINE_REASON };
      const outerId = `sbx_${randomBytes(OUTER_ID_RANDOM_BYTES).toString('hex')}`;
      const now = clock();
      return {
        outcome: 'issued',
        outerId,
        panMask: maskPan(panOf(outerId)),
        expMonth: now.getUTCMonth() + 1,
        expYear: now.getUTCFullYear() + CARD_VALIDITY_YEARS,
      };
    },

    async cardData(card: IssuedCardReference): Promise<FullCardData> {
      return { pan: panOf(card.outerId), expMonth: card.expMonth, expYear: card.expYear, cvv: cvvOf(card.outerId), holder: card.holderName };
    },

    async setPin(_outerId: string, pin: string): Promise<void> {
      if (!/^[0-9]{4}$/.test(pin)) throw new Error('the sandbox issuer takes a PIN of four digits');
    },
  };
}

// The digit that makes body + digit pass the Luhn check.
export function luhnCheckDigit(body: string): string {
  let sum = 0;
  for (let index = body.length - 1, doubled = true; index >= 0; index -= 1, doubled = !doubled) {
    let digit = body.charCodeAt(index) - 48;
    if (doubled) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}
