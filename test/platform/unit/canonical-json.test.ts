import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/platform/lib/canonical-json.ts';
import { jsonNestingDepth } from '../../../src/platform/lib/json-body-parser.ts';

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: [3, { z: 1, y: [null, 'x'] }], a: { d: true, c: 'ü' } })).toBe('{"a":{"c":"ü","d":true},"b":[3,{"y":[null,"x"],"z":1}]}');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson(null)).toBe('null');
  });

  it('matches JSON.stringify of the same value with sorted keys', () => {
    const value = { list: [1, 'two', { three: 3, four: [4] }], text: 'a"b\\c', number: -1.5e-7, nothing: null };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });

  it('leaves out the named keys at any depth', () => {
    const body = { card: { pan: '4111', cvv: '123' }, cvv: 'top', list: [{ cvv: '9', keep: 1 }] };
    expect(canonicalJson(body, { omitKeys: new Set(['cvv']) })).toBe('{"card":{"pan":"4111"},"list":[{"keep":1}]}');
  });

  it('writes a 100,000-deep value without running out of stack', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level += 1) deep = level % 2 === 0 ? [deep] : { a: deep };
    const text = canonicalJson(deep);
    expect(text.length).toBeGreaterThan(300_000);
    expect(text.startsWith('{"a":[{"a":[')).toBe(true);
  });
});

describe('jsonNestingDepth', () => {
  it.each([
    ['1', 0],
    ['[]', 1],
    ['{"a":[1,{"b":[]}]}', 4],
    ['["[[[[", "\\"[[["]', 1],
    ['[[1],[2],[[3]]]', 3],
  ])('%s nests %i deep', (text, depth) => {
    expect(jsonNestingDepth(text)).toBe(depth);
  });

  it('stops scanning one level past the limit', () => {
    expect(jsonNestingDepth('['.repeat(1_000_000), 64)).toBe(65);
  });
});
