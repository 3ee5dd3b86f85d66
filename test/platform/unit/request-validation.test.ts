import { describe, expect, it } from 'vitest';
import { nulPath, textCoercion } from '../../../src/platform/lib/request-validation.ts';

const QuerySchema = {
  type: 'object',
  properties: {
    page: { type: 'integer' },
    ratio: { type: 'number' },
    active: { type: 'boolean' },
    name: { type: 'string' },
    payer: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    ids: { type: 'array', items: { type: 'integer' } },
  },
};

describe('query and path text → numbers and booleans', () => {
  const convert = (query: Record<string, unknown>) => {
    const copy = { ...query };
    textCoercion(QuerySchema)?.(copy);
    return copy;
  };

  it.each([
    ['1', 1],
    ['0', 0],
    ['-7', -7],
    ['9007199254740991', 9007199254740991],
  ])('reads the plain integer %j', (text, value) => {
    expect(convert({ page: text })).toEqual({ page: value });
  });

  it.each(['1e309', '1e2', ' 100', '100 ', '0x10', 'Infinity', 'NaN', '+1', '01', '1.0', '', '9'.repeat(17)])(
    'leaves %j as text for the schema to refuse',
    (text) => {
      expect(convert({ page: text })).toEqual({ page: text });
    },
  );

  it('reads decimals only where a number is wanted, booleans only as true/false, and keeps text for strings', () => {
    expect(convert({ ratio: '2.5', active: 'true', name: '42', payer: '42' })).toEqual({ ratio: 2.5, active: true, name: '42', payer: '42' });
    expect(convert({ ratio: '2.5e1', active: '1' })).toEqual({ ratio: '2.5e1', active: '1' });
  });

  it('reads a single value of a list parameter as a list of one', () => {
    expect(convert({ ids: '3' })).toEqual({ ids: [3] });
    expect(convert({ ids: ['3', '1e2'] })).toEqual({ ids: [3, '1e2'] });
  });
});

describe('NUL detection', () => {
  it('points at the first string value or key holding U+0000', () => {
    expect(nulPath({ a: 'fine', b: { c: ['x', 'y\u0000'] } }, '', 0)).toBe('/b/c/1');
    expect(nulPath({ 'ke\u0000y': 1 }, '', 0)).toBe('');
    expect(nulPath({ details: { 'ke\u0000y': 1 } }, '', 0)).toBe('/details');
    expect(nulPath('\u0000', '', 0)).toBe('');
    expect(nulPath({ a: 'fine', n: 1, t: true, z: null }, '', 0)).toBeNull();
  });
});
