import { describe, expect, it } from 'vitest';
import { cardRules, cardRulesOnPage } from '../../../src/payments/routes/checkout/card-rules-data.ts';
import { CHECKOUT_LOCALES } from '../../../src/payments/routes/checkout/locales.ts';
import { cardRuleErrors, HOLDER_PATTERN, isValidHolder, normalizeHolder } from '../../../src/payments/contract/card-schema.ts';
import {
  BIN_RANGES,
  CARD_BRAND_RULES,
  cardBrandOf,
  cardRuleOf,
  cvvFitsCard,
  PAN_DIGITS_MAX,
  PAN_DIGITS_MIN,
  panProblemOf,
  type CardBrand,
} from '../../../src/payments/domain/card-brand.ts';

// Issue 19: one table of card rules by brand (domain/card-brand.ts), read by the server and rendered into the page.
describe('the card rules by brand', () => {
  it('gives American Express 15 digits and a 4-digit code, every other brand a 3-digit code', () => {
    expect(CARD_BRAND_RULES['American Express']).toEqual({ panLengths: [15], cvvLength: 4 });
    for (const [brand, rule] of Object.entries(CARD_BRAND_RULES)) {
      if (brand !== 'American Express') expect(rule.cvvLength, brand).toBe(3);
      for (const length of rule.panLengths) {
        expect(length, brand).toBeGreaterThanOrEqual(PAN_DIGITS_MIN);
        expect(length, brand).toBeLessThanOrEqual(PAN_DIGITS_MAX);
      }
    }
  });

  it('holds a number of no known brand to 12–19 digits and a 3-digit code', () => {
    expect(cardRuleOf(null)).toEqual({ panLengths: [12, 13, 14, 15, 16, 17, 18, 19], cvvLength: 3 });
  });

  it.each<[string, CardBrand | null, ReturnType<typeof panProblemOf>]>([
    ['378282246310005', 'American Express', null],
    ['371449635398431', 'American Express', null],
    ['3782822463100052', 'American Express', 'brand_length'],
    ['4111111111111111', 'Visa', null],
    ['4222222222222', 'Visa', null], // 13 digits
    ['4111111111111111110', 'Visa', null], // 19 digits
    ['411111111111111', 'Visa', 'brand_length'],
    ['501800000009', 'Maestro', null], // 12 digits
    ['5555555555554444', 'MasterCard', null],
    ['555555555555444', 'MasterCard', 'brand_length'],
    ['4111111111111112', 'Visa', 'check_digit'],
    ['378282246310006', 'American Express', 'check_digit'],
  ])('reads %s as %s: %s', (panDigits, brand, problem) => {
    expect(cardBrandOf(panDigits)).toBe(brand);
    expect(panProblemOf(panDigits)).toBe(problem);
  });

  it.each([
    ['378282246310005', '1234', true],
    ['378282246310005', '123', false],
    ['4111111111111111', '123', true],
    ['4111111111111111', '1234', false],
    ['4111111111111111', '12a', false],
  ])('takes the security code of %s as %j: %s', (panDigits, cvv, fits) => {
    expect(cvvFitsCard(panDigits, cvv)).toBe(fits);
  });

  it('explains a Host-to-Host card its brand cannot have, field by field', () => {
    expect(cardRuleErrors({ pan: '3782 822463 10005', cvv: '1234' })).toEqual([]);
    expect(cardRuleErrors({ pan: '3782 8224 6310 0052', cvv: '123' })).toEqual([
      { code: 'invalid_field', field: 'card.pan', message: 'must have 15 digits for American Express' },
      { code: 'invalid_field', field: 'card.cvv', message: 'must be 4 digits for American Express' },
    ]);
  });
});

describe('the holder name', () => {
  it.each([
    ['Yi', true],
    ['X', true],
    ['李', true],
    ['李小龍', true],
    ['Ян', true],
    ['Ö', true],
    ['  Ян  ', true],
    ["Mary-Jane O'Neil Jr.", true],
    ['नमस्ते', true], // combining marks
    ['X'.repeat(100), true],
    ['X'.repeat(101), false],
    ['', false],
    ['   ', false],
    ['.-', false],
    ['R2-D2', false],
    ['JOHN\tDOE', false],
    ['<script>', false],
  ])('takes %j: %s', (holder, valid) => {
    expect(isValidHolder(holder)).toBe(valid);
  });

  it('is kept trimmed', () => {
    expect(normalizeHolder('  Yi ')).toBe('Yi');
  });

  it('is matched in linear time, however long the text the API is sent', () => {
    const started = performance.now();
    new RegExp(HOLDER_PATTERN, 'u').test(`${'a'.repeat(200_000)}1`);
    new RegExp(HOLDER_PATTERN, 'u').test(`${' '.repeat(200_000)}1`);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe.each(CHECKOUT_LOCALES)('the rules the page gets in %s', (locale) => {
  const rules = cardRules(locale);

  it('are the table, not a copy of its numbers', () => {
    expect(JSON.parse(cardRulesOnPage(locale))).toEqual(rules);
    expect(rules.ranges).toEqual(BIN_RANGES.map(({ brand, low, high }) => [brand, low, high]));
    for (const [brand, rule] of Object.entries(CARD_BRAND_RULES)) {
      expect(rules.brands[brand]).toMatchObject({ panLengths: rule.panLengths, cvvLength: rule.cvvLength });
    }
    expect(rules.unknown).toEqual(cardRuleOf(null));
  });

  it('carry a message per brand in the page language', () => {
    const amex = rules.brands['American Express'];
    expect(amex?.panMessage).toContain('15');
    expect(amex?.cvvMessage).toContain('4');
    expect(amex?.label).toContain('American Express');
    if (locale !== 'en') expect(amex?.panMessage).not.toBe(cardRules('en').brands['American Express']?.panMessage);
  });
});
