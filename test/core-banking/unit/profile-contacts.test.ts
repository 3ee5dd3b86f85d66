import { describe, expect, it } from 'vitest';
import { loginKeyOf, maskRecipient, normalizeEmail, normalizeLogin, normalizePhone } from '../../../src/core-banking/domain/profile-contacts.ts';
import { challengeRefusal, WRONG_CODES_MAX } from '../../../src/core-banking/domain/sign-in-rules.ts';

describe('profile contacts in their normal form', () => {
  it.each([
    ['Ada@Example.COM', 'ada@example.com'],
    ['  ada.lovelace+bank@mail.example.co.uk ', 'ada.lovelace+bank@mail.example.co.uk'],
    ['ada', null],
    ['ada@example', null],
    ['a b@example.com', null],
    ['two@@example.com', null],
    [`${'a'.repeat(65)}@example.com`, null],
  ])('e-mail %j → %j', (text, expected) => {
    expect(normalizeEmail(text)).toBe(expected);
  });

  it.each([
    ['+44 7700 900123', '+447700900123'],
    ['+1 (555) 010-9999', '+15550109999'],
    ['+44.20.7946.0123', '+442079460123'],
    ['07700900123', null], // no country code
    ['+12345', null], // fewer than 6 digits (spec 8)
    [`+${'1'.repeat(21)}`, null], // more than 20
    ['+44 7700 9001x3', null],
  ])('phone %j → %j', (text, expected) => {
    expect(normalizePhone(text)).toBe(expected);
  });

  it('tells an e-mail login from a phone login, and keeps a login that is neither apart from both', () => {
    expect(normalizeLogin('ADA@example.com')).toEqual({ kind: 'email', email: 'ada@example.com' });
    expect(normalizeLogin('+44 7700 900123')).toEqual({ kind: 'phone', phone: '+447700900123' });
    expect(loginKeyOf(normalizeLogin('not a login'))).toBe('other:not a login');
    expect(loginKeyOf(normalizeLogin('Ada@Example.com'))).toBe(loginKeyOf(normalizeLogin('ada@example.com')));
  });

  it('masks recipients for listings', () => {
    expect(maskRecipient('ada@example.com')).toBe('ad***@example.com');
    expect(maskRecipient('a@example.com')).toBe('a***@example.com');
    expect(maskRecipient('+447700900123')).toBe('+44***23');
  });
});

describe('when a pre-session may still confirm', () => {
  const now = new Date('2030-01-01T12:00:00Z');
  const live = { expiresAt: new Date('2030-01-01T12:05:00Z'), consumedAt: null, wrongCodes: 0 };

  it('lets a live pre-session confirm', () => {
    expect(challengeRefusal(live, now)).toBeNull();
    expect(challengeRefusal({ ...live, wrongCodes: WRONG_CODES_MAX - 1 }, now)).toBeNull();
  });

  it('refuses a used one first, then one with too many wrong codes, then an expired one', () => {
    expect(challengeRefusal({ ...live, consumedAt: now, wrongCodes: WRONG_CODES_MAX, expiresAt: now }, now)).toBe('used');
    expect(challengeRefusal({ ...live, wrongCodes: WRONG_CODES_MAX, expiresAt: now }, now)).toBe('locked');
    expect(challengeRefusal({ ...live, expiresAt: now }, now)).toBe('expired');
  });
});
