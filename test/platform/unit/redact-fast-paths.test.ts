import { describe, expect, it } from 'vitest';
import { maskCardData, redactForLog } from '../../../src/platform/lib/redact.ts';

// The redaction's shortcuts (plain assignment, memoized key names, no PAN search in short strings, one compiled
// matcher per card object) must mask exactly what the slow path did.
describe('redaction shortcuts', () => {
  it('copies a "__proto__" key from parsed JSON as a plain key, never as the copy\'s prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') as unknown;
    const copy = redactForLog(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"ok":1}');
  });

  it('still masks a card number used as a key, and redacts secret keys however they are spelled, on every call', () => {
    for (let call = 0; call < 3; call += 1) {
      const copy = redactForLog({ '4242424242424242': 'x', Sign_Key: 's3cret', 'merchant-private-key': 'k', pan: '4242 4242 4242 4242' });
      expect(copy).toEqual({ '424242******4242': 'x', Sign_Key: '[redacted]', 'merchant-private-key': '[redacted]', pan: '424242******4242' });
    }
  });

  it("removes the card's CVV from short strings and keeps other short digit strings", () => {
    const card = { panDigits: '4000000000000002', cvv: '321' };
    expect(redactForLog({ note: 'cvv 321', code: '4321', order: 'A-17', amount: 321 }, card)).toEqual({
      note: 'cvv [redacted]',
      code: '4321',
      order: 'A-17',
      amount: 321,
    });
    expect(maskCardData('declined: 321', card)).toBe('declined: [redacted]');
  });

  it("looks for each card object's own data, even when cards follow one another", () => {
    const first = { panDigits: '4000000000000002', cvv: '111' };
    const second = { panDigits: '5555555555554444', cvv: '222' };
    const text = 'card 4000 0000 0000 0002 / 5555-5555-5555-4444, cvv 111 or 222';
    // The card's own PAN is replaced by its mask; any other card number keeps its separators around the hidden digits.
    expect(redactForLog(text, first)).toBe('card 400000******0002 / 5555-55**-****-4444, cvv [redacted] or 222');
    expect(redactForLog(text, second)).toBe('card 4000 00** **** 0002 / 555555******4444, cvv 111 or [redacted]');
    expect(redactForLog(text, first)).toBe('card 400000******0002 / 5555-55**-****-4444, cvv [redacted] or 222');
  });
});
