import { describe, expect, it } from 'vitest';
import {
  BANK_ACCOUNT_TEXT_LENGTH_MAX,
  checkNewBankAccount,
  DETAILS_SIZE_MAX_BYTES,
  looksLikeIban,
  normalizeAccountValue,
  type BankAccountInput,
} from '../../../src/core-banking/domain/bank-account-rules.ts';
import { BANK_ACCOUNT_ACTIONS, decideBankAccountAction, type BankAccountAction } from '../../../src/core-banking/domain/bank-account-status.ts';
import { BANK_ACCOUNT_STATUSES, type BankAccountStatus } from '../../../src/core-banking/domain/core-banking-values.ts';
import { majorUnitsOf } from '../../../src/core-banking/domain/wallet-amount.ts';

const known = (code: string) => ['EUR', 'GBP', 'USD', 'USDT'].includes(code);
const base: BankAccountInput = { value: 'Main account', currency: 'EUR', provider: 'default' };
const check = (input: Partial<BankAccountInput>) => checkNewBankAccount({ ...base, ...input }, known);
const problemsOf = (input: Partial<BankAccountInput>) => {
  const result = check(input);
  return result.ok ? [] : result.problems.map(({ code, field }) => `${field}:${code}`);
};

describe('a new bank account record', () => {
  it('keeps an IBAN in electronic format and accepts its checksum', () => {
    const result = check({ provider: 'iban', value: 'gb82 west 1234 5698 7654 32' });
    expect(result).toMatchObject({ ok: true, account: { value: 'GB82WEST12345698765432', currency: 'EUR' } });
  });

  it.each([
    ['a wrong check digit', 'GB82WEST12345698765431'],
    ['a wrong national length', 'DE8937040044053201300'],
    ['no IBAN at all', '12345678'],
  ])('refuses %s when the provider is iban', (_case, value) => {
    expect(problemsOf({ provider: 'iban', value })).toEqual(['value:invalid_iban']);
  });

  it('checks an IBAN-shaped value or account number of any provider, and leaves other identifiers alone', () => {
    expect(problemsOf({ value: 'DE89 3704 0044 0532 0130 01' })).toEqual(['value:invalid_iban']);
    expect(problemsOf({ provider: 'beneficiary', value: 'Rent', accountNumber: 'NL91ABNA0417164301' })).toEqual(['account_number:invalid_iban']);
    expect(check({ value: '40817810099910004312', accountNumber: 'ACC-001' })).toMatchObject({ ok: true, account: { value: '40817810099910004312' } });
    expect(looksLikeIban('NL91 ABNA 0417 1643 00')).toBe(true);
    expect(looksLikeIban('12345678')).toBe(false);
    expect(normalizeAccountValue('  nl91 abna 0417 1643 00 ')).toBe('NL91ABNA0417164300');
    expect(normalizeAccountValue('  Savings ')).toBe('Savings');
  });

  it.each([
    ['DEUTDEFF', 'DEUTDEFF'],
    ['deutdeff500', 'DEUTDEFF500'],
    ['NWBK GB2L', 'NWBKGB2L'],
  ])('accepts the BIC %s as %s', (given, kept) => {
    expect(check({ swiftCode: given })).toMatchObject({ ok: true, account: { swiftCode: kept } });
  });

  it.each(['DEUTZZFF', 'DEUT1EFF', 'DEUTDEF', 'DEUTDEFF50', 'DEUTDEFF5000'])('refuses the BIC %s', (bic) => {
    expect(problemsOf({ swiftCode: bic })).toEqual(['swift_code:invalid_bic']);
  });

  it('checks the BICs and the correspondent IBAN inside details', () => {
    expect(problemsOf({ details: { swift_code: 'XXXX', corresponding_swift_code: 'NWBKGB2L', corresponding_iban: 'GB82WEST12345698765431' } })).toEqual([
      'details.swift_code:invalid_bic',
      'details.corresponding_iban:invalid_iban',
    ]);
    expect(check({ details: { swift_code: 'nwbkgb2l', corresponding_iban: 'gb82 west 1234 5698 7654 32', beneficiary_city: 'Leeds' } })).toMatchObject({
      ok: true,
      account: { details: { swift_code: 'NWBKGB2L', corresponding_iban: 'GB82WEST12345698765432', beneficiary_city: 'Leeds' } },
    });
  });

  it.each(['12-34-56', '12 34 56', '123456'])('keeps the UK sort code %s as six digits', (sortCode) => {
    expect(check({ ukSortCode: sortCode, ukAccountNumber: '31926819' })).toMatchObject({
      ok: true,
      account: { ukSortCode: '123456', ukAccountNumber: '31926819' },
    });
  });

  it('refuses a malformed sort code or account number, and either one without the other', () => {
    expect(problemsOf({ ukSortCode: '12-34-5', ukAccountNumber: '31926819' })).toEqual(['uk_sort_code:invalid_sort_code']);
    expect(problemsOf({ ukSortCode: '12-34-56', ukAccountNumber: '3192681' })).toEqual(['uk_account_number:invalid_account_number']);
    expect(problemsOf({ ukSortCode: '12-34-56' })).toEqual(['uk_account_number:missing_field']);
    expect(problemsOf({ ukAccountNumber: '31926819' })).toEqual(['uk_sort_code:missing_field']);
  });

  it('takes a known currency in any case and refuses an unknown one', () => {
    expect(check({ currency: 'usdt' })).toMatchObject({ ok: true, account: { currency: 'USDT' } });
    expect(problemsOf({ currency: 'XYZ' })).toEqual(['currency:unknown_currency']);
  });

  it('never keeps a full card number on a card account', () => {
    expect(problemsOf({ provider: 'card', value: '4242 4242 4242 4242' })).toEqual(['value:card_number_not_accepted']);
    expect(problemsOf({ provider: 'card', value: '424242******4242', accountNumber: '4242-4242-4242-4242' })).toEqual([
      'account_number:card_number_not_accepted',
    ]);
    expect(check({ provider: 'card', value: '424242******4242' }).ok).toBe(true);
  });

  it('bounds details: its size, its depth, its strings, and no NUL or lone surrogate', () => {
    const big = { note: 'x'.repeat(200), ...Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`extra_${index}`, 'y'.repeat(200)])) };
    expect(JSON.stringify(big).length).toBeGreaterThan(DETAILS_SIZE_MAX_BYTES);
    expect(problemsOf({ details: big })).toEqual(['details:details_too_large']);
    expect(problemsOf({ details: { extra: 'z'.repeat(BANK_ACCOUNT_TEXT_LENGTH_MAX + 1) } })).toEqual(['details.extra:invalid_field']);
    expect(problemsOf({ details: { list: ['ok', 'bad\u0000'] } })).toEqual(['details.list[1]:invalid_field']);
    expect(problemsOf({ details: { text: 'lone \ud83d surrogate' } })).toEqual(['details.text:invalid_field']);
    expect(check({ details: { text: 'a pair 😀 is fine' } }).ok).toBe(true);
    expect(problemsOf({ details: { a: { b: { c: { d: 'deep' } } } } })).toEqual(['details.a.b.c:invalid_field']);
    expect(check({ details: { a: { b: { c: 'three levels' } }, count: 3, flag: true, none: null } }).ok).toBe(true);
  });

  it('reports every problem at once', () => {
    expect(problemsOf({ provider: 'iban', value: 'GB00', currency: 'ABC', swiftCode: 'bad' })).toEqual([
      'currency:unknown_currency',
      'value:invalid_iban',
      'swift_code:invalid_bic',
    ]);
  });
});

// The whole table: every status × every action; anything not listed is refused.
const ALLOWED: Record<string, BankAccountStatus> = {
  'pending|request': 'pending_request',
  'pending|approve': 'approved',
  'pending|decline': 'declined',
  'pending|close': 'closed',
  'pending_request|approve': 'approved',
  'pending_request|decline': 'declined',
  'pending_request|close': 'closed',
  'approved|close': 'closed',
  'approved|verify': 'approved',
  'declined|close': 'closed',
};

describe('bank account status transitions', () => {
  const cases = BANK_ACCOUNT_STATUSES.flatMap((from) => BANK_ACCOUNT_ACTIONS.map((action): [BankAccountStatus, BankAccountAction] => [from, action]));

  it.each(cases)('%s + %s', (from, action) => {
    const decision = decideBankAccountAction(from, action);
    const expected = ALLOWED[`${from}|${action}`];
    if (expected === undefined) expect(decision.ok).toBe(false);
    else expect(decision).toMatchObject({ ok: true, to: expected });
    if (decision.ok) expect(decision.from).toContain(from);
  });
});

describe('wallet amounts in major units', () => {
  it.each([
    [1999, 2, 19.99],
    [5, 2, 0.05],
    [0, 2, 0],
    [-150, 2, -1.5],
    [1234, 0, 1234],
    [1, 6, 0.000001],
    [1005, 3, 1.005],
  ])('%i minor units with exponent %i is %d', (minor, exponent, major) => {
    expect(majorUnitsOf(minor, exponent)).toBe(major);
  });
});
