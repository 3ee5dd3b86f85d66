import { describe, expect, it } from 'vitest';
import { cardRequestProblems, normalizePhone, parseCardReference, pinProblem } from '../../../src/core-banking/domain/bank-card-rules.ts';

describe('bank card request rules', () => {
  const fullDelivery = { address_line: '12 Baker Street', city: 'London', zipcode: 'NW1 6XE', country_code: 'GB' };

  it('needs no delivery for a virtual card and a complete address for a physical one', () => {
    expect(cardRequestProblems({ cardType: 'virtual' })).toEqual([]);
    expect(cardRequestProblems({ cardType: 'physical', delivery: fullDelivery })).toEqual([]);
    expect(cardRequestProblems({ cardType: 'physical' }).map((problem) => problem.field)).toEqual([
      'bank_card_delivery_attributes.address_line',
      'bank_card_delivery_attributes.city',
      'bank_card_delivery_attributes.zipcode',
      'bank_card_delivery_attributes.country_code',
    ]);
    expect(cardRequestProblems({ cardType: 'physical', delivery: { ...fullDelivery, city: '   ' } })).toHaveLength(1);
  });

  it('takes assigned ISO 3166-1 country codes only', () => {
    expect(cardRequestProblems({ cardType: 'virtual', countryCode: 'XX' })[0]?.field).toBe('country_code');
    expect(cardRequestProblems({ cardType: 'physical', delivery: { ...fullDelivery, country_code: 'UK' } })[0]?.field).toBe(
      'bank_card_delivery_attributes.country_code',
    );
  });

  it('keeps phones as digits after a leading +', () => {
    expect(normalizePhone('+44 (20) 7946-0958')).toBe('+442079460958');
    expect(normalizePhone('020 7946 0958')).toBe('02079460958');
  });

  it.each([
    ['42', { kind: 'id', id: 42 }],
    ['sbx_00ff_outer_id', { kind: 'outer_id', outerId: 'sbx_00ff' }],
    ['0', null],
    ['042', null],
    ['_outer_id', null],
    ['a/b_outer_id', null],
    ['abc', null],
    ['9999999999999999', null],
  ])('reads the card path id %j', (pathId, reference) => {
    expect(parseCardReference(pathId)).toEqual(reference);
  });

  it.each([
    ['4831', '4831', null],
    ['0000', '0000', 'pin_too_simple'],
    ['1234', '1234', 'pin_too_simple'],
    ['9876', '9876', 'pin_too_simple'],
    ['1357', '1357', null],
    ['4831', '4830', 'pin_mismatch'],
    ['483', '483', 'pin_format'],
    ['48a1', '48a1', 'pin_format'],
    ['', '', 'pin_format'],
  ])('PIN %j then %j → %s', (pin, confirmation, problem) => {
    expect(pinProblem(pin, confirmation)).toBe(problem);
  });
});
