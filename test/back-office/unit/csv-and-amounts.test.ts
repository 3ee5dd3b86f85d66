import { describe, expect, it } from 'vitest';
import { decimalTextOf, parseAmountInput } from '../../../src/back-office/domain/amount-input.ts';
import { csvField, csvLine } from '../../../src/back-office/domain/csv.ts';
import { withRunningBalances } from '../../../src/ledger/domain/statement.ts';

describe('CSV fields of the dashboard exports', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=HYPERLINK("http://evil")', `"'=HYPERLINK(""http://evil"")"`],
    ['+1+2', "'+1+2"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['-12.50', '-12.50'],
    ['0.00', '0.00'],
  ])('writes %j as %j', (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it('writes numbers and empty values, and ends a line with CRLF', () => {
    expect(csvLine([42, null, 'x'])).toBe('42,,x\r\n');
  });
});

describe('amounts typed in a form', () => {
  it.each([
    ['12.50', 2, 1250],
    ['12,5', 2, 1250],
    ['7', 0, 7],
    ['0.000001', 6, 1],
    [' 3.10 ', 2, 310],
  ])('reads %j with exponent %d as %d minor units', (text, exponent, minor) => {
    expect(parseAmountInput(text, exponent, 'XXX')).toEqual({ ok: true, amountMinor: minor });
  });

  it.each([
    ['1.234', 2],
    ['1.5', 0],
    ['0', 2],
    ['-1', 2],
    ['1e3', 2],
    ['', 2],
    ['99999999999999999', 2],
  ])('refuses %j with exponent %d', (text, exponent) => {
    expect(parseAmountInput(text, exponent, 'XXX').ok).toBe(false);
  });

  it('writes minor units back as exact decimal text', () => {
    expect([decimalTextOf(12345, 2), decimalTextOf(-5, 2), decimalTextOf(7, 0), decimalTextOf(0, 3)]).toEqual(['123.45', '-0.05', '7', '0.000']);
  });
});

describe('a statement page’s running balances', () => {
  it('walks back from the balances after the newest move', () => {
    const move = (transactionId: number, availableMinor: number, holdMinor: number) => ({
      transactionId,
      createdAt: new Date(0),
      kind: 'payment_captured' as const,
      paymentToken: null,
      availableMinor,
      holdMinor,
    });
    const { lines, before } = withRunningBalances({ available: 950, hold: 300 }, [move(3, -300, 300), move(2, 1000, 0), move(1, 250, 0)]);
    expect(lines.map((line) => [line.availableAfterMinor, line.holdAfterMinor])).toEqual([
      [950, 300],
      [1250, 0],
      [250, 0],
    ]);
    expect(before).toEqual({ available: 0, hold: 0 });
  });
});
