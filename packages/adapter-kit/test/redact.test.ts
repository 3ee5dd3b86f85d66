import { describe, expect, it } from 'vitest';
import { CARD_NUMBER_NAMES, CARD_SECURITY_CODE_NAMES, isSecretName, keyNameOf, REDACTED, redactForLog } from '@payrail/adapter-kit';

// One list of secret, security code and card number names: an adapter redacts its logs by it, and Payrail its own.

describe('the names redaction goes by', () => {
  it('compares names lowercased, letters and digits only', () => {
    expect(keyNameOf('Card-Number')).toBe('cardnumber');
    expect(keyNameOf('card_number')).toBe('cardnumber');
    expect(CARD_NUMBER_NAMES.has(keyNameOf('cardNumber'))).toBe(true);
    expect(CARD_SECURITY_CODE_NAMES.has(keyNameOf('Card_CVV'))).toBe(true);
  });

  it.each(['sign_key', 'api_key', 'merchant_private_key', 'rabbit_password', 'client_secret', 'webhook_token', 'Authorization', 'secure', 'assets'])(
    'takes %s for a secret',
    (key) => {
      expect(isSecretName(keyNameOf(key))).toBe(true);
    },
  );

  it.each(['token', 'gateway_token', 'payment_token', 'auth_code', 'public_key', 'amount', 'status'])('takes %s for no secret', (key) => {
    expect(isSecretName(keyNameOf(key))).toBe(false);
  });
});

describe("the kit's redactForLog", () => {
  it('removes security codes, replaces secrets and masks card numbers, by name or by value', () => {
    const redacted = redactForLog({
      card: { pan: 4111111111111111, Card_CVV: '123', holder: 'A B' },
      headers: { authorization: 'Bearer x', 'x-request-id': 'r1' },
      note: 'card 4111 1111 1111 1111 refused',
      settings: { sign_key: 'k', webhook_token: 't', brand_id: 'b' },
      token: 'pay_1',
    });
    expect(redacted).toEqual({
      card: { pan: '411111******1111', holder: 'A B' },
      headers: { authorization: REDACTED, 'x-request-id': 'r1' },
      note: 'card 4111 11** **** 1111 refused',
      settings: { sign_key: REDACTED, webhook_token: REDACTED, brand_id: 'b' },
      token: 'pay_1',
    });
  });

  it('masks card numbers by one rule with Payrail: Luhn-valid digit runs, never the digits inside a token', () => {
    // A payment token holding a Luhn-valid run of 13 digits (3866122897542) is an identifier, not a card.
    const token = 'c982a4e3866122897542e186cea7aac4';
    expect(redactForLog({ reference: token, note: `ref ${token}` })).toEqual({ reference: token, note: `ref ${token}` });
    expect(redactForLog({ note: 'order 1234567890123' })).toEqual({ note: 'order 1234567890123' }); // fails Luhn
    expect(redactForLog({ note: 'paid with 5555555555554444.' })).toEqual({ note: 'paid with 555555******4444.' });
  });
});
