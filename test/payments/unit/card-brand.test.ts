import { describe, expect, it } from 'vitest';
import { cardBrandOf, type CardBrand } from '../../../src/payments/domain/card-brand.ts';

describe('cardBrandOf (spec 2.8 brands)', () => {
  it.each<[string, CardBrand]>([
    ['4111111111111111', 'Visa'],
    ['4012888888881881', 'Visa'],
    ['4000056655665556', 'Visa'],
    ['5555555555554444', 'MasterCard'],
    ['5105105105105100', 'MasterCard'],
    ['2223003122003222', 'MasterCard'],
    ['2221000000000009', 'MasterCard'],
    ['2720999999999996', 'MasterCard'],
    ['378282246310005', 'American Express'],
    ['371449635398431', 'American Express'],
    ['340000000000009', 'American Express'],
    ['6759649826438453', 'Maestro'],
    ['5018000000000009', 'Maestro'],
    ['6304000000000000', 'Maestro'],
    ['5600000000000003', 'Maestro'],
    ['6400000000000000', 'Maestro'],
    ['6900000000000000', 'Maestro'],
    ['6070000000000000', 'Rupay'],
    ['6521500000000000', 'Rupay'],
    ['6531490000000000', 'Rupay'],
    ['5085000000000000', 'Rupay'],
    ['8171000000000000', 'Rupay'],
    ['8201990000000000', 'Rupay'],
    ['6362970000000000', 'Elo'],
    ['5067000000000000', 'Elo'],
    ['4011780000000000', 'Elo'],
    ['4389350000000000', 'Elo'],
    ['6500310000000000', 'Elo'],
    ['5090000000000000', 'Elo'],
    ['2200000000000000', 'Mir'],
    ['2204999999999999', 'Mir'],
    ['2202200000000000', 'Mir'],
    ['6011111111111117', 'Discover'],
    ['6011000990139424', 'Discover'],
    ['6445644564456445', 'Discover'],
    ['6500000000000002', 'Discover'],
    ['6200000000000005', 'China UnionPay'],
    ['6250941006528599', 'China UnionPay'],
    ['3530111333300000', 'JCB'],
    ['3566002020360505', 'JCB'],
    ['3528000000000007', 'JCB'],
    ['3589000000000000', 'JCB'],
    ['5019717010103742', 'Dankort'],
    ['4571000000000000', 'Dankort'],
    ['6062826786276634', 'Hipercard'],
    ['3841001111222233', 'Hipercard'],
  ])('reads %s as %s', (panDigits, brand) => {
    expect(cardBrandOf(panDigits)).toBe(brand);
  });

  it('accepts a bare six-digit BIN', () => {
    expect(cardBrandOf('411111')).toBe('Visa');
  });

  it.each<[string, string]>([
    ['1234567890123456', 'prefix 1'],
    ['9999999999999999', 'prefix 9'],
    ['7000000000000000', 'prefix 7'],
    ['3000000000000004', 'Diners Club, not in the list'],
    ['3600000000000008', 'Diners Club 36'],
    ['2199999999999999', 'just below Mir'],
    ['2205000000000000', 'between Mir and MasterCard'],
    ['2220999999999999', 'just below MasterCard 2221'],
    ['2721000000000000', 'just above MasterCard 2720'],
    ['3527999999999999', 'just below JCB'],
    ['3590000000000000', 'just above JCB'],
    ['8300000000000000', 'prefix 83'],
  ])('knows no brand for %s (%s)', (panDigits) => {
    expect(cardBrandOf(panDigits)).toBeNull();
  });

  it.each([
    ['', 'empty'],
    ['41111', 'five digits'],
    ['41111111111111111111', 'twenty digits'],
    ['4111 1111 1111 1111', 'spaces'],
    ['4111-1111-1111-1111', 'dashes'],
    ['４１１１１１１１１１１１１１１１', 'full-width digits'],
  ])('knows no brand for malformed input: %s (%s)', (panDigits) => {
    expect(cardBrandOf(panDigits)).toBeNull();
  });
});
