import { describe, expect, it } from 'vitest';
import { FAVICON_SVG, faviconDataUrl } from '../../../src/platform/lib/favicon.ts';
import { renderChallengePage, renderCompletedPage, threeDSecureCsp } from '../../../src/sandbox-adapter/three-d-secure-page.ts';
import { threeDSecureLocaleOf, threeDSecureText } from '../../../src/sandbox-adapter/three-d-secure-texts.ts';

describe('threeDSecureLocaleOf', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['en-US,en;q=0.9', 'en'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh'],
    ['zh-TW', 'zh'],
    ['ja-JP,ja;q=0.9,en-US;q=0.8', 'jp'],
    ['JA', 'jp'],
    ['fr-FR,fr;q=0.9,ja;q=0.5,en;q=0.4', 'jp'],
    ['en;q=0.3,zh;q=0.7', 'zh'],
    ['zh;q=0,en;q=0.1', 'en'],
    ['de,fr', 'en'],
    ['*', 'en'],
    ['ja;q=abc,zh;q=0.2', 'zh'],
    [`${'x,'.repeat(600)}ja`, 'en'],
  ])('reads %j as %s', (header, locale) => {
    expect(threeDSecureLocaleOf(header)).toBe(locale);
  });
});

describe('the sandbox 3-D Secure page', () => {
  const input = { completeUrl: 'https://pay.test/sandbox-adapter/3ds/sbx_1/complete', panMasked: '400000******3220', transactionId: 'sbx_1' };

  it.each([
    ['en', 123456789, 'USD', '1,234,567.89 USD'],
    ['zh', 123456789, 'CNY', '¥1,234,567.89'],
    ['jp', 1234567, 'JPY', '￥1,234,567'],
    ['jp', 1500, 'KWD', '1.500 KWD'],
    ['en', 12345678, 'USDT', '12,345,678 USDT (minor units)'],
    ['zh', 12345678, 'USDT', '12,345,678 USDT（最小货币单位）'],
  ] as const)('in %s shows %i minor units of %s as %j', (locale, amountMinor, currency, expected) => {
    const html = renderChallengePage({ ...input, locale, amountMinor, currency });
    expect(html).toContain(`<dd id="amount">${expected}</dd>`);
    expect(html).toContain(`<html lang="${threeDSecureText(locale).htmlLang}">`);
    expect(html).toContain(`<title>${threeDSecureText(locale).title}</title>`);
    expect(html).toContain(threeDSecureText(locale).successButton);
  });

  it('links the favicon inline, allowed by its CSP and by nothing broader', () => {
    const html = renderCompletedPage('jp', 'approved', null);
    expect(html).toContain(`<link rel="icon" href="${faviconDataUrl()}" type="image/svg+xml">`);
    expect(Buffer.from(faviconDataUrl().split(',')[1]!, 'base64').toString('utf8')).toBe(FAVICON_SVG);
    expect(threeDSecureCsp(null)).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'");
    expect(html).toContain('認証はすでに完了しています');
  });

  it('escapes what it shows', () => {
    const html = renderChallengePage({ ...input, locale: 'en', amountMinor: 1, currency: 'USD', transactionId: '<b>x</b>' });
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('<b>x</b>');
  });
});
