import { describe, expect, it } from 'vitest';
import { cardCheckText } from '../../../src/payments/routes/checkout/card-check-texts.ts';
import { parseCardForm } from '../../../src/payments/routes/checkout/card-form.ts';
import { CHECKOUT_LOCALES, checkoutText } from '../../../src/payments/routes/checkout/locales.ts';
import { cardFieldMessage, renderPaymentPage } from '../../../src/payments/routes/checkout/pages.ts';
import { hasValidCheckDigit, isExpired, parseFormExpiry } from '../../../src/platform/lib/card-checks.ts';
import { SANDBOX_TEST_CARD_NUMBERS } from '../../../src/platform/lib/sandbox-test-cards.ts';
import { attribute, tagById } from './checkout-markup.ts';

const NOW = new Date('2026-11-15T10:00:00Z');
const GOOD_FORM = { pan: '4242 4242 4242 4242', expires: '12/30', holder: 'GRACE HOPPER', cvv: '737' };

describe('hasValidCheckDigit', () => {
  it.each([
    ['4242424242424242', true],
    ['4242424242424241', false], // the typo of issue 11, declined for good by the acquirer before
    ['4111111111111111', true],
    ['4111111111111112', false],
    ['5555555555554444', true],
    ['4111111111111111110', true],
    ['4111111111111111111', false],
    ['', false],
    ['4242 4242 4242 4242', false], // digits only: the form strips the spaces first
  ])('%j → %s', (digits, valid) => {
    expect(hasValidCheckDigit(digits)).toBe(valid);
  });

  it('lets every published sandbox test card through: each one has a valid check digit', () => {
    for (const display of Object.values(SANDBOX_TEST_CARD_NUMBERS)) expect(hasValidCheckDigit(display.replaceAll(' ', '')), display).toBe(true);
    expect(hasValidCheckDigit('4000000000001004')).toBe(false);
  });
});

describe('parseFormExpiry', () => {
  it.each([
    ['12/30', { month: 12, year: 2030 }],
    ['01/2031', { month: 1, year: 2031 }],
    ['09 / 29', { month: 9, year: 2029 }],
    [' 09 /2029 ', { month: 9, year: 2029 }],
    ['12/99', { month: 12, year: 2099 }],
  ])('reads %j', (text, expiry) => {
    expect(parseFormExpiry(text)).toEqual(expiry);
  });

  it.each(['', '1230', '13/30', '00/30', '1/30', '12/3', '12/030', '12/20300', '12-30', '12//30', 'ab/cd', '１２/３０'])('refuses %j', (text) => {
    expect(parseFormExpiry(text)).toBeNull();
  });
});

describe('isExpired', () => {
  it.each([
    [{ month: 11, year: 2026 }, '2026-11-01T00:00:00Z', false],
    [{ month: 11, year: 2026 }, '2026-11-30T23:59:59Z', false],
    // valid through the end of its month in the last time zone to leave it (UTC−12)
    [{ month: 11, year: 2026 }, '2026-12-01T11:59:59Z', false],
    [{ month: 11, year: 2026 }, '2026-12-01T12:00:00Z', true],
    [{ month: 10, year: 2026 }, '2026-11-15T10:00:00Z', true],
    [{ month: 12, year: 2025 }, '2026-01-01T12:00:00Z', true],
    [{ month: 1, year: 2020 }, '2026-11-15T10:00:00Z', true],
    [{ month: 1, year: 2027 }, '2026-12-31T23:00:00Z', false],
  ])('%j at %s → %s', (expiry, now, expired) => {
    expect(isExpired(expiry, new Date(now))).toBe(expired);
  });
});

describe('parseCardForm, the hosted form on the server', () => {
  it.each([
    ['12/30', 12, 2030],
    ['12/2030', 12, 2030],
    ['11 / 26', 11, 2026],
    ['01/2031', 1, 2031],
  ])('takes the expiry %j as month %i of %i', (expires, month, year) => {
    expect(parseCardForm({ ...GOOD_FORM, expires }, NOW)).toEqual({
      card: { panDigits: '4242424242424242', expiryMonth: month, expiryYear: year, holder: 'GRACE HOPPER', cvv: '737' },
    });
  });

  it('refuses a card number with a wrong check digit, as a mistake of the number field', () => {
    expect(parseCardForm({ ...GOOD_FORM, pan: '4242 4242 4242 4241' }, NOW)).toEqual({
      invalidFields: ['pan'],
      problems: { pan: 'check_digit' },
      brand: 'Visa',
    });
  });

  it.each(['10/26', '01/2020', '12 / 25'])('refuses the past expiry %j as an expired card', (expires) => {
    expect(parseCardForm({ ...GOOD_FORM, expires }, NOW)).toEqual({ invalidFields: ['expires'], problems: { expires: 'expired' }, brand: 'Visa' });
  });

  it('tells a shape mistake from a check failure, field by field', () => {
    expect(parseCardForm({ pan: '4242', expires: '13/30', holder: 'GRACE HOPPER', cvv: '7' }, NOW)).toEqual({
      invalidFields: ['pan', 'expires', 'cvv'],
      problems: { pan: 'format', expires: 'format', cvv: 'format' },
      brand: null,
    });
    expect(parseCardForm({ ...GOOD_FORM, pan: '4000 0000 0000 0001', expires: '09/2026' }, NOW)).toEqual({
      invalidFields: ['pan', 'expires'],
      problems: { pan: 'check_digit', expires: 'expired' },
      brand: 'Visa',
    });
  });

  it('takes the sandbox test cards that predate the check digit rule', () => {
    expect('card' in parseCardForm({ ...GOOD_FORM, pan: '4000 0000 0000 1018' }, NOW)).toBe(true);
  });
});

describe.each(CHECKOUT_LOCALES)('the card check messages in %s', (locale) => {
  it('have their own text per problem, the format texts unchanged', () => {
    const checks = cardCheckText(locale);
    const text = checkoutText(locale);
    expect(cardFieldMessage(locale, 'pan', 'check_digit')).toBe(checks.panCheckDigit);
    expect(cardFieldMessage(locale, 'expires', 'expired')).toBe(checks.cardExpired);
    expect(cardFieldMessage(locale, 'pan')).toBe(text.panInvalid);
    expect(cardFieldMessage(locale, 'expires', 'format')).toBe(text.expiresInvalid);
    // Every message, the ones that name a brand and a count filled in with Visa's.
    const said = (texts: typeof checks) => [
      texts.panCheckDigit,
      texts.cardExpired,
      texts.panBrandLength('Visa', '13, 16 or 19'),
      texts.cvvBrandLength('Visa', 3),
      texts.detectedBrand('Visa'),
    ];
    const english = said(cardCheckText('en'));
    said(checks).forEach((message, index) => {
      expect(message.trim()).not.toBe('');
      if (locale !== 'en') expect(message).not.toBe(english[index]);
    });
  });

  it('reach the browser with the rules the server applies', () => {
    const page = renderPaymentPage({
      token: 'tok',
      locale,
      product: 'Teapot',
      amountMinor: 100,
      currency: 'USD',
      exponent: 2,
      actionUrl: '/checkout/tok',
      now: new Date('2026-12-01T11:00:00Z'),
    });
    const pan = tagById(page.html, 'pan');
    const expires = tagById(page.html, 'expires');
    expect(attribute(pan, 'data-check')).toBe('check-digit');
    expect(attribute(pan, 'data-check-message')).toBe(cardCheckText(locale).panCheckDigit);
    expect(attribute(expires, 'data-check')).toBe('expiry');
    expect(attribute(expires, 'data-valid-from')).toBe('2026-11'); // still November at UTC−12
    expect(attribute(expires, 'data-check-message')).toBe(cardCheckText(locale).cardExpired);
    expect(attribute(expires, 'placeholder')).toBe('MM/YY');
    expect(Number(attribute(expires, 'maxlength'))).toBeGreaterThanOrEqual('MM / YYYY'.length);
  });
});
