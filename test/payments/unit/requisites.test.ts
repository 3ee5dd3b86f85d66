import { describe, expect, it } from 'vitest';
import type { AdapterRequisites } from '../../../src/payments/contract/adapter-contract.ts';
import { mapRequisites, requisitesForType, type RequisiteType } from '../../../src/payments/domain/requisites.ts';

const fullRequisites: AdapterRequisites = {
  card: '4111111111111111',
  holder: 'IVAN PETROV',
  bank_name: 'Sber',
  phone: '+79001234567',
  account: '40817810000000000001',
  link: 'https://pay.example/l/1',
  deeplink: true,
  qr_data: 'ST00012|Name=x',
};

describe('mapRequisites (spec 2.9)', () => {
  it('returns null for no requisites', () => {
    expect(mapRequisites(null, ['comment'])).toBeNull();
  });

  it('renames holder, bank_name and card and keeps the other standard keys', () => {
    expect(mapRequisites(fullRequisites, [])).toEqual({
      name: 'IVAN PETROV',
      bank: 'Sber',
      pan: '4111111111111111',
      phone: '+79001234567',
      account: '40817810000000000001',
      link: 'https://pay.example/l/1',
      deeplink: true,
      qr_data: 'ST00012|Name=x',
    });
  });

  it('leaves out standard keys the adapter did not send', () => {
    expect(mapRequisites({ card: '2200', holder: 'A B' }, [])).toEqual({ pan: '2200', name: 'A B' });
  });

  it('drops keys that are neither standard nor custom', () => {
    expect(mapRequisites({ card: '2200', internal_id: 'x' }, [])).toEqual({ pan: '2200' });
  });

  it.each<[string, AdapterRequisites, Record<string, unknown>]>([
    ['a numeric card', { card: 4111 as unknown as string }, {}],
    ['a holder object', { holder: { first: 'A' } as unknown as string }, {}],
    ['a deeplink string', { deeplink: 'true' as unknown as boolean }, {}],
    ['deeplink false (kept)', { deeplink: false }, { deeplink: false }],
  ])('keeps standard keys only when well typed: %s', (_label, requisites, expected) => {
    expect(mapRequisites(requisites, [])).toEqual(expected);
  });

  it.each<[string, AdapterRequisites, string[], Record<string, unknown>]>([
    ['a custom value as sent', { card: '2200', comment: 'pay by 5pm' }, ['comment'], { pan: '2200', comment: 'pay by 5pm' }],
    ['a missing custom value as null', { card: '2200' }, ['comment'], { pan: '2200', comment: null }],
    ['an empty custom value as null', { comment: '' }, ['comment'], { comment: null }],
    ['a non-string custom value unchanged', { amount_due: 15, extra: { a: 1 } }, ['amount_due', 'extra'], { amount_due: 15, extra: { a: 1 } }],
    ['a custom key over the standard one', { phone: '+7900', phone_override: 'x' }, ['phone'], { phone: '+7900' }],
    ['a custom "name" over the mapped holder', { holder: 'IVAN', name: 'Ivan P.' }, ['name'], { name: 'Ivan P.' }],
    ['a custom "name" with no raw name as null', { holder: 'IVAN' }, ['name'], { name: null }],
    ['a custom "pan" from the raw key, not from card', { card: '4111' }, ['pan'], { pan: null }],
  ])('adds %s', (_label, requisites, customFields, expected) => {
    expect(mapRequisites(requisites, customFields)).toEqual(expected);
  });

  it('puts custom keys after the standard keys', () => {
    const mapped = mapRequisites({ card: '2200', comment: 'c', holder: 'H' }, ['comment']);
    expect(Object.keys(mapped ?? {})).toEqual(['name', 'pan', 'comment']);
  });

  it('reads no inherited property and cannot change the prototype through a custom key', () => {
    const mapped = mapRequisites({}, ['__proto__', 'toString', 'constructor']);
    expect(Object.entries(mapped ?? {})).toEqual([
      ['__proto__', null],
      ['toString', null],
      ['constructor', null],
    ]);
    expect(Object.getPrototypeOf(mapped)).toBe(Object.prototype);
  });
});

describe('requisitesForType', () => {
  const mapped = mapRequisites(fullRequisites, []);

  it.each<[RequisiteType | null, Record<string, unknown>]>([
    ['card', { card: { name: 'IVAN PETROV', bank: 'Sber', pan: '4111111111111111' } }],
    ['sbp', { sbp: { name: 'IVAN PETROV', bank: 'Sber', phone: '+79001234567' } }],
    ['link', { link: { url: 'https://pay.example/l/1' } }],
    ['account', { account: { number: '40817810000000000001', name: 'IVAN PETROV', bank: 'Sber' } }],
    [null, {}],
  ])('shapes %s requisites', (requisiteType, expected) => {
    expect(requisitesForType(mapped, requisiteType)).toEqual(expected);
  });

  it.each<[RequisiteType, Record<string, unknown>]>([
    ['card', { card: { name: null, bank: null, pan: null } }],
    ['sbp', { sbp: { name: null, bank: null, phone: null } }],
    ['link', { link: { url: null } }],
    ['account', { account: { number: null, name: null, bank: null } }],
  ])('fills missing %s values with null, also when nothing was mapped', (requisiteType, expected) => {
    expect(requisitesForType({}, requisiteType)).toEqual(expected);
    expect(requisitesForType(null, requisiteType)).toEqual(expected);
  });

  it('treats empty strings as missing and ignores inherited properties', () => {
    expect(requisitesForType({ name: '', bank: 'B' }, 'sbp')).toEqual({ sbp: { name: null, bank: 'B', phone: null } });
    expect(requisitesForType(Object.create({ pan: '4111' }) as Record<string, unknown>, 'card')).toEqual({
      card: { name: null, bank: null, pan: null },
    });
  });
});
