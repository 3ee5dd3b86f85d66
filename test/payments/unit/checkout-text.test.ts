import { describe, expect, it } from 'vitest';
import { CHECKOUT_LOCALES, checkoutText, normalizeLocale, type CheckoutText } from '../../../src/payments/routes/checkout/locales.ts';

describe('normalizeLocale', () => {
  it.each([
    ['en', 'en'],
    ['zh', 'zh'],
    ['jp', 'jp'],
    ['JP', 'jp'],
    ['ja', 'jp'],
    ['ja-JP', 'jp'],
    ['zh-CN', 'zh'],
    ['zh_TW', 'zh'],
    ['en-GB', 'en'],
    [' zh ', 'zh'],
  ] as const)('maps %j to %s', (value, locale) => {
    expect(normalizeLocale(value)).toBe(locale);
  });

  it.each([undefined, '', 'ru', 'de-DE', 'constructor', '__proto__', 'toString', 'e'])('falls back to en for %j', (value) => {
    expect(normalizeLocale(value)).toBe('en');
  });
});

describe('checkoutText', () => {
  function strings(text: CheckoutText): [string, string][] {
    const entries: [string, string][] = [];
    for (const [key, value] of Object.entries(text)) {
      if (typeof value === 'string') entries.push([key, value]);
      else if (typeof value === 'function') entries.push([key, String((value as (a: string) => string)('9.99 USD'))]);
      else for (const [status, line] of Object.entries(value as Record<string, string>)) entries.push([`${key}.${status}`, line]);
    }
    return entries;
  }

  const english = strings(checkoutText('en')).map(([key]) => key);

  it.each(CHECKOUT_LOCALES)('gives %s a non-empty text for every key English has', (locale) => {
    const entries = strings(checkoutText(locale));
    expect(entries.map(([key]) => key)).toEqual(english);
    for (const [key, value] of entries) expect(value.trim(), key).not.toBe('');
  });

  it.each(CHECKOUT_LOCALES)('puts the amount into the %s pay button', (locale) => {
    expect(checkoutText(locale).payButton('9.99 USD')).toContain('9.99 USD');
  });

  it.each(['zh', 'jp'] as const)('translates %s rather than copying English', (locale) => {
    const translated = checkoutText(locale);
    const same = strings(translated).filter(([key, value]) => strings(checkoutText('en')).some(([k, v]) => k === key && v === value));
    // Only the MM/YY placeholder and the CVV acronym may stay as in English.
    expect(same.map(([key]) => key).filter((key) => key !== 'expiresPlaceholder' && key !== 'cvvLabel')).toEqual([]);
  });

  it('tags Japanese with the BCP 47 code ja although the spec calls the locale jp', () => {
    expect(checkoutText('jp').htmlLang).toBe('ja');
  });
});
