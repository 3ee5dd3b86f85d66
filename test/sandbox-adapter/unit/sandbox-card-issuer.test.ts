import { describe, expect, it } from 'vitest';
import { passesLuhn } from '@payrail/adapter-kit';
import { createSandboxCardIssuer, luhnCheckDigit, SANDBOX_DECLINE_REASON } from '../../../src/core-banking/gateways/sandbox-card-issuer.ts';

const request = (holderLastName = 'Lovelace') => ({
  cardType: 'virtual' as const,
  holderFirstName: 'Ada',
  holderLastName,
  phone: null,
  holderPhone: null,
  countryCode: null,
  delivery: null,
});

describe('the sandbox card issuer', () => {
  const issuer = createSandboxCardIssuer(Buffer.alloc(32, 1), () => new Date('2026-11-15T10:00:00Z'));

  it('issues a card under BIN 400000 whose number passes Luhn and matches its mask, expiring three years ahead', async () => {
    for (let index = 0; index < 50; index += 1) {
      const issued = await issuer.issue(request());
      if (issued.outcome !== 'issued') throw new Error('expected an issued card');
      expect(issued).toMatchObject({ expMonth: 11, expYear: 2029 });
      const data = await issuer.cardData({ outerId: issued.outerId, expMonth: 11, expYear: 2029, holderName: 'Ada Lovelace' });
      expect(data.pan).toMatch(/^400000[0-9]{10}$/);
      expect(passesLuhn(data.pan)).toBe(true);
      expect(issued.panMask).toBe(`${data.pan.slice(0, 6)}******${data.pan.slice(-4)}`);
      expect(data.cvv).toMatch(/^[0-9]{3}$/);
      expect(data).toMatchObject({ expMonth: 11, expYear: 2029, holder: 'Ada Lovelace' });
    }
  });

  it('derives the same number and CVV for an outer id every time, and others under another master key', async () => {
    const card = { outerId: 'sbx_0123456789abcdef01234567', expMonth: 1, expYear: 2030, holderName: 'A B' };
    const first = await issuer.cardData(card);
    expect(await createSandboxCardIssuer(Buffer.alloc(32, 1)).cardData(card)).toEqual(first);
    const elsewhere = await createSandboxCardIssuer(Buffer.alloc(32, 2)).cardData(card);
    expect(elsewhere.pan).not.toBe(first.pan);
    expect((await issuer.cardData({ ...card, outerId: 'sbx_other' })).pan).not.toBe(first.pan);
  });

  it.each(['Decline', 'decline', 'DECLINE', '  Decline  '])('rejects holder last name %j', async (lastName) => {
    expect(await issuer.issue(request(lastName))).toEqual({ outcome: 'rejected', reason: SANDBOX_DECLINE_REASON });
  });

  it('issues to names that merely contain "decline"', async () => {
    expect((await issuer.issue(request('Declined'))).outcome).toBe('issued');
  });

  it('accepts a four-digit PIN and nothing else', async () => {
    await expect(issuer.setPin('sbx_x', '4831')).resolves.toBeUndefined();
    await expect(issuer.setPin('sbx_x', '483')).rejects.toThrow();
    await expect(issuer.setPin('sbx_x', '48310')).rejects.toThrow();
  });

  it.each([
    ['400000123456789', '9'],
    ['424242424242424', '2'],
    ['7992739871', '3'],
  ])('computes the Luhn check digit of %s as %s', (body, digit) => {
    expect(luhnCheckDigit(body)).toBe(digit);
    expect(passesLuhn(body + digit)).toBe(true);
  });
});
