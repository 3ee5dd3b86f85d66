import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  legacySignature,
  modernSignatureHeader,
  verifyModernSignature,
  type LegacySignatureFields,
} from '../../../src/payments/domain/notification-signature.ts';

const md5Hex = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');
const hmacHex = (key: string, text: string): string => createHmac('sha256', key).update(text, 'utf8').digest('hex');

const fields: LegacySignatureFields = {
  token: 'tok1',
  type: 'pay',
  status: 'approved',
  extraReturnParam: 'xrp',
  orderNumber: 'ord-1',
  amount: 1000,
  currency: 'USD',
  gatewayAmount: '10.00',
  gatewayCurrency: 'EUR',
};

describe('legacySignature: MD5 over length-prefixed values and the merchant key', () => {
  it.each<[string, Partial<LegacySignatureFields>, string]>([
    ['every field present', {}, '4tok13pay8approved3xrp5ord-1410003USD510.003EURmk'],
    ['no extraReturnParam (null)', { extraReturnParam: null }, '4tok13pay8approved5ord-1410003USD510.003EURmk'],
    ['no orderNumber (empty)', { orderNumber: '' }, '4tok13pay8approved3xrp410003USD510.003EURmk'],
    ['neither optional field', { extraReturnParam: null, orderNumber: null }, '4tok13pay8approved410003USD510.003EURmk'],
    ['an empty token, type and status left out', { token: '', type: '', status: '' }, '3xrp5ord-1410003USD510.003EURmk'],
    ['amounts as a string and a number', { amount: '1000', gatewayAmount: 10 }, '4tok13pay8approved3xrp5ord-1410003USD2103EURmk'],
    ['a ten-character value', { orderNumber: 'ABCDEFGHIJ' }, '4tok13pay8approved3xrp10ABCDEFGHIJ410003USD510.003EURmk'],
    ['amount 0 (kept, never empty)', { amount: 0, gatewayAmount: 0 }, '4tok13pay8approved3xrp5ord-1103USD103EURmk'],
  ])('signs %s', (_label, overrides, signedByHand) => {
    expect(legacySignature({ ...fields, ...overrides }, 'mk')).toBe(md5Hex(signedByHand));
  });

  it('is lowercase hex of 32 characters', () => {
    expect(legacySignature(fields, 'mk')).toMatch(/^[0-9a-f]{32}$/);
  });

  it.each<[string, Partial<LegacySignatureFields>]>([
    ['status', { status: 'declined' }],
    ['amount', { amount: 1001 }],
    ['currency', { currency: 'GBP' }],
    ['order number', { orderNumber: 'ord-2' }],
  ])('changes when the %s changes', (_label, overrides) => {
    expect(legacySignature({ ...fields, ...overrides }, 'mk')).not.toBe(legacySignature(fields, 'mk'));
  });

  it('changes with the merchant key', () => {
    expect(legacySignature(fields, 'mk2')).not.toBe(legacySignature(fields, 'mk'));
  });

  it('tells apart values that concatenate to the same text', () => {
    const first = legacySignature({ ...fields, extraReturnParam: 'ab', orderNumber: 'c' }, 'mk');
    const second = legacySignature({ ...fields, extraReturnParam: 'a', orderNumber: 'bc' }, 'mk');
    expect(first).not.toBe(second);
  });
});

describe('modernSignatureHeader', () => {
  it('is t=<seconds>,v1=<HMAC-SHA256 of "<t>.<body>">', () => {
    const header = modernSignatureHeader('{"status":"approved"}', 'merchant-key', 1_700_000_000);
    expect(header).toBe(`t=1700000000,v1=${hmacHex('merchant-key', '1700000000.{"status":"approved"}')}`);
  });

  it('signs an empty body', () => {
    expect(modernSignatureHeader('', 'k', 0)).toBe(`t=0,v1=${hmacHex('k', '0.')}`);
  });

  it.each([[-1], [1.5], [Number.NaN]])('refuses the time %s', (unixSeconds) => {
    expect(() => modernSignatureHeader('{}', 'k', unixSeconds)).toThrow(RangeError);
  });
});

describe('verifyModernSignature', () => {
  const body = '{"token":"tok1","status":"approved"}';
  const signedAt = 1_700_000_000;
  const header = `t=${signedAt},v1=${hmacHex('merchant-key', `${signedAt}.${body}`)}`;
  const otherDigest = hmacHex('old-key', `${signedAt}.${body}`);

  it.each<[string, string, number]>([
    ['at the signing second', header, signedAt],
    ['at the edge of the tolerance, later', header, signedAt + 300],
    ['at the edge of the tolerance, earlier', header, signedAt - 300],
    ['with spaces after the commas', header.replace(',', ', '), signedAt],
    ['with v1 before t', `v1=${header.split('v1=')[1]},t=${signedAt}`, signedAt],
    ['with an old-key digest beside the right one', `t=${signedAt},v1=${otherDigest},v1=${header.split('v1=')[1]}`, signedAt],
    ['with an unknown scheme beside v1', `${header},v0=abc`, signedAt],
  ])('accepts a genuine header %s', (_label, candidate, nowSeconds) => {
    expect(verifyModernSignature(candidate, body, 'merchant-key', 300, nowSeconds)).toBe(true);
  });

  it.each<[string, string, string, string, number]>([
    ['another body', header, `${body} `, 'merchant-key', signedAt],
    ['another key', header, body, 'other-key', signedAt],
    ['a time past the tolerance', header, body, 'merchant-key', signedAt + 301],
    ['a time ahead of the tolerance', header, body, 'merchant-key', signedAt - 301],
    ['a changed t', header.replace(`t=${signedAt}`, `t=${signedAt + 1}`), body, 'merchant-key', signedAt],
    ['only a wrong digest', `t=${signedAt},v1=${otherDigest}`, body, 'merchant-key', signedAt],
    ['an upper-case digest', header.toUpperCase().replace('T=', 't=').replace('V1=', 'v1='), body, 'merchant-key', signedAt],
    ['a short digest', `t=${signedAt},v1=abc`, body, 'merchant-key', signedAt],
    ['no t', `v1=${header.split('v1=')[1]}`, body, 'merchant-key', signedAt],
    ['no v1', `t=${signedAt}`, body, 'merchant-key', signedAt],
    ['two t', `t=${signedAt},${header}`, body, 'merchant-key', signedAt],
    ['a negative t', header.replace(`t=${signedAt}`, `t=-${signedAt}`), body, 'merchant-key', -signedAt],
    ['a part without =', `${header},junk`, body, 'merchant-key', signedAt],
    ['an empty header', '', body, 'merchant-key', signedAt],
    ['a header over 1024 characters', `${header},v0=${'a'.repeat(1024)}`, body, 'merchant-key', signedAt],
  ])('refuses %s', (_label, candidate, candidateBody, merchantKey, nowSeconds) => {
    expect(verifyModernSignature(candidate, candidateBody, merchantKey, 300, nowSeconds)).toBe(false);
  });

  it('round-trips with modernSignatureHeader', () => {
    const made = modernSignatureHeader(body, 'merchant-key', signedAt);
    expect(verifyModernSignature(made, body, 'merchant-key', 0, signedAt)).toBe(true);
  });

  it.each([[-1], [Number.NaN]])('refuses the tolerance %s', (toleranceSeconds) => {
    expect(() => verifyModernSignature(header, body, 'merchant-key', toleranceSeconds, signedAt)).toThrow(RangeError);
  });
});
