import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertCommissionTerms,
  basisPointsToPercent,
  COMMISSION_FIXED_MINOR_MAX,
  COMMISSION_PERCENT_BP_MAX,
  commissionFor,
  NO_COMMISSION,
  percentToBasisPoints,
} from '../../../src/ledger/domain/commission.ts';

const terms = (percentBp: number, fixedMinor = 0) => ({ percentBp, fixedMinor });

describe('commissionFor', () => {
  it.each([
    // amount, basis points, fixed, commission
    [1000, 250, 0, 25], // 2.5 % of 10.00
    [1000, 250, 30, 55], // 2.5 % + 0.30
    [1999, 250, 0, 50], // 49.975 → 50
    [50, 100, 0, 1], // 0.5 exactly: half rounds up
    [49, 100, 0, 0], // 0.49 → 0
    [150, 100, 0, 2], // 1.5 → 2
    [250, 100, 0, 3], // 2.5 → 3 (half up, not half to even)
    [1, 250, 0, 0], // 0.025 → 0
    [20, 250, 0, 1], // 0.5 → 1
    [0, 250, 30, 30], // nothing to take a percentage of: the fixed part alone
    [12_345, 0, 0, 0],
    [12_345, COMMISSION_PERCENT_BP_MAX, 0, 12_345], // 100 %
    [12_345, 1, 0, 1], // 1.2345 → 1
    [15_000, 1, 0, 2], // 1.5 → 2
  ])('takes %i × %i bp + %i = %i (the percentage rounded half up to a minor unit)', (amount, percentBp, fixedMinor, expected) => {
    expect(commissionFor(amount, terms(percentBp, fixedMinor))).toBe(expected);
  });

  it('charges nothing without terms', () => {
    expect(commissionFor(1_000_000, NO_COMMISSION)).toBe(0);
  });

  it('is exact for amounts far beyond what a double multiplies without loss', () => {
    // 9007199254740991 × 1 bp = 900719925474.0991 → 900719925474; in doubles the product alone already rounds
    expect(commissionFor(Number.MAX_SAFE_INTEGER, terms(1))).toBe(900_719_925_474);
    expect(commissionFor(Number.MAX_SAFE_INTEGER, terms(COMMISSION_PERCENT_BP_MAX))).toBe(Number.MAX_SAFE_INTEGER);
    expect(commissionFor(9_007_199_254_740_000, terms(5))).toBe(4_503_599_627_370); // 4503599627370.000 exactly
    expect(commissionFor(1_000_000_000_000_000, terms(250, COMMISSION_FIXED_MINOR_MAX))).toBe(25_000_000_000_000 + COMMISSION_FIXED_MINOR_MAX);
  });

  it('refuses a commission that would pass the largest safe integer', () => {
    expect(() => commissionFor(Number.MAX_SAFE_INTEGER, terms(COMMISSION_PERCENT_BP_MAX, 1))).toThrow(/largest safe integer/);
  });

  it('rounds half up exactly for every amount and term (checked against integer arithmetic)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 52 }),
        fc.integer({ min: 0, max: COMMISSION_PERCENT_BP_MAX }),
        fc.integer({ min: 0, max: COMMISSION_FIXED_MINOR_MAX }),
        (amount, percentBp, fixedMinor) => {
          const commission = commissionFor(amount, terms(percentBp, fixedMinor));
          // half up: the percentage part p satisfies amount × bp / 10,000 − ½ < p ≤ amount × bp / 10,000 + ½
          const distance = 10_000n * BigInt(commission - fixedMinor) - BigInt(amount) * BigInt(percentBp);
          expect(distance > -5_000n && distance <= 5_000n).toBe(true);
        },
      ),
    );
  });

  it('never falls as the amount or the percentage grows', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10 ** 12 }), fc.nat({ max: 10 ** 6 }), fc.nat({ max: COMMISSION_PERCENT_BP_MAX }), (amount, more, percentBp) => {
        expect(commissionFor(amount + more, terms(percentBp))).toBeGreaterThanOrEqual(commissionFor(amount, terms(percentBp)));
        expect(commissionFor(amount, terms(Math.min(percentBp + 1, COMMISSION_PERCENT_BP_MAX)))).toBeGreaterThanOrEqual(
          commissionFor(amount, terms(percentBp)),
        );
      }),
    );
  });

  it.each([
    ['a negative amount', -1],
    ['a fractional amount', 10.5],
    ['an unsafe amount', Number.MAX_SAFE_INTEGER + 1],
    ['NaN', Number.NaN],
  ])('refuses %s', (_label, amount) => {
    expect(() => commissionFor(amount, terms(250))).toThrow(/minor units/);
  });
});

describe('commission term bounds', () => {
  it.each([[terms(0, 0)], [terms(COMMISSION_PERCENT_BP_MAX, 0)], [terms(0, COMMISSION_FIXED_MINOR_MAX)], [terms(250, 30)]])('accepts %o', (given) => {
    expect(() => assertCommissionTerms(given)).not.toThrow();
  });

  it.each([
    ['percentBp', terms(-1)],
    ['percentBp', terms(COMMISSION_PERCENT_BP_MAX + 1)],
    ['percentBp', terms(2.5)],
    ['percentBp', terms(Number.NaN)],
    ['fixedMinor', terms(0, -1)],
    ['fixedMinor', terms(0, COMMISSION_FIXED_MINOR_MAX + 1)],
    ['fixedMinor', terms(0, 0.5)],
  ])('refuses %s out of bounds: %o', (field, given) => {
    expect(() => assertCommissionTerms(given)).toThrow(field);
    expect(() => commissionFor(100, given)).toThrow(field);
  });
});

describe('percentToBasisPoints', () => {
  it.each([
    [0, 0],
    [2.5, 250],
    [0.01, 1],
    [0.07, 7], // 0.07 × 100 is 7.000000000000001 in doubles
    [1.15, 115], // 1.15 × 100 is 114.99999999999999
    [33.33, 3333],
    [99.99, 9999],
    [100, COMMISSION_PERCENT_BP_MAX],
  ])('reads %d %% as %i basis points', (percent, basisPoints) => {
    expect(percentToBasisPoints(percent)).toBe(basisPoints);
  });

  it.each([
    ['three decimals', 2.345],
    ['a sliver above 100 %', 100.01],
    ['far above 100 %', 250],
    ['a negative percentage', -1],
    ['a tiny negative percentage', -0.001],
    ['NaN', Number.NaN],
    ['infinity', Number.POSITIVE_INFINITY],
    ['a thousandth', 0.001],
  ])('refuses %s', (_label, percent) => {
    expect(percentToBasisPoints(percent)).toBeNull();
  });

  it('round-trips every basis point through its percentage', () => {
    for (let basisPoints = 0; basisPoints <= COMMISSION_PERCENT_BP_MAX; basisPoints += 1) {
      expect(percentToBasisPoints(basisPointsToPercent(basisPoints))).toBe(basisPoints);
    }
  });
});
