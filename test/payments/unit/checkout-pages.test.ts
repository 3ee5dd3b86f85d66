import { describe, expect, it } from 'vitest';
import { parseCardForm } from '../../../src/payments/routes/checkout/card-form.ts';
import { CHECKOUT_LOCALES, checkoutText, type CheckoutLocale } from '../../../src/payments/routes/checkout/locales.ts';
import {
  cardFieldMessage,
  renderPaymentPage,
  renderRedirectPage,
  renderResultPage,
  renderWaitingPage,
  type PageResult,
  type PaymentPageInput,
} from '../../../src/payments/routes/checkout/pages.ts';
import { CVV_PATTERN, HOLDER_PATTERN, PAN_PATTERN } from '../../../src/payments/contract/card-schema.ts';
import { FORM_EXPIRES_PATTERN } from '../../../src/platform/lib/card-checks.ts';
import { attribute, startTags, tagById, tagsByName, textById } from './checkout-markup.ts';

const PAN = '4111111111111111';
const CVV = '737';

function paymentInput(overrides: Partial<PaymentPageInput> = {}): PaymentPageInput {
  return {
    token: 'tok_3f2a',
    locale: 'en',
    product: 'Order #1001',
    amountMinor: 1000,
    currency: 'USD',
    exponent: 2,
    actionUrl: '/checkout/tok_3f2a/pay',
    ...overrides,
  };
}

function everyPage(locale: CheckoutLocale): [string, PageResult][] {
  const redirect = (type: 'get' | 'post' | 'post_iframes' | 'get_with_processing' | 'redirect_html') =>
    renderRedirectPage({
      locale,
      statusUrl: '/checkout/tok/status',
      redirect: { type, url: type === 'redirect_html' ? '<p>bank</p>' : 'https://acs.example/3ds', params: { PaReq: 'x' } },
    });
  return [
    ['payment', renderPaymentPage(paymentInput({ locale, errors: [{ field: 'pan', message: cardFieldMessage(locale, 'pan') }] }))],
    ['waiting', renderWaitingPage({ locale, statusUrl: '/checkout/tok/status' })],
    ...(['approved', 'declined', 'expired', 'pending', 'refunded'] as const).map((status): [string, PageResult] => [
      `result ${status}`,
      renderResultPage({ locale, status, product: 'Order #1001', amountText: '10.00 USD', reason: 'Insufficient funds' }),
    ]),
    ...(['get', 'post', 'post_iframes', 'get_with_processing', 'redirect_html'] as const).map((type): [string, PageResult] => [
      `redirect ${type}`,
      redirect(type),
    ]),
  ];
}

// English UI sentences that must not leak into a translated page (short or shared ones excepted).
const ENGLISH_SENTENCES = Object.values(checkoutText('en'))
  .flatMap((value: unknown): string[] => {
    if (typeof value === 'string') return [value];
    if (typeof value === 'object' && value !== null) return Object.values(value as Record<string, string>);
    return [];
  })
  .filter((value) => value.length > 8 && value !== 'MM/YYYY');

describe.each(CHECKOUT_LOCALES)('every checkout page in %s', (locale) => {
  it.each(everyPage(locale))('%s is a complete document with our assets only and nothing inline', (_name, page) => {
    const { html } = page;
    expect(html.startsWith('<!doctype html>\n')).toBe(true);
    expect(html).toContain(`<html lang="${checkoutText(locale).htmlLang}">`);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<link rel="stylesheet" href="/checkout/assets/checkout.css">');
    expect(html).toContain('<script src="/checkout/assets/checkout.js" defer></script>');
    expect(tagsByName(html, 'script')).toHaveLength(1);
    expect(html).toContain('<link rel="icon" href="/checkout/assets/favicon.svg" type="image/svg+xml">');
    expect(tagsByName(html, 'link')).toHaveLength(2);
    for (const tag of startTags(html)) {
      expect(tag).not.toMatch(/\son[a-z]+=/i);
      expect(tag).not.toMatch(/\sstyle=/i);
    }
    expect(html).not.toMatch(/<style|javascript:|undefined|\[object |NaN/);
    for (const tag of [...tagsByName(html, 'link'), ...tagsByName(html, 'script'), ...tagsByName(html, 'img')]) {
      expect(attribute(tag, 'src') ?? attribute(tag, 'href')).toMatch(/^\/checkout\/assets\//);
    }
    expect(page.csp).not.toContain('unsafe-inline');
    expect(page.csp).toContain("frame-ancestors 'none'");
    const title = html.match(/<title>([^<]+)<\/title>/)?.[1] ?? '';
    expect(title.trim()).not.toBe('');
  });
});

describe.each(['zh', 'jp'] as const)('every checkout page in %s', (locale) => {
  it.each(everyPage(locale))('%s has no English UI text left', (_name, page) => {
    for (const sentence of ENGLISH_SENTENCES) expect(page.html).not.toContain(sentence);
  });
});

describe('renderPaymentPage', () => {
  const page = renderPaymentPage(paymentInput());

  it('gives the card inputs, the pay button and the error area their stable ids, each input with its label', () => {
    for (const id of ['pan', 'expires', 'holder', 'cvv']) {
      const input = tagById(page.html, id);
      expect(attribute(input, 'name')).toBe(id);
      expect(page.html).toContain(`<label for="${id}">`);
      expect(attribute(input, 'data-message')).not.toBe('');
      expect(tagById(page.html, `${id}-error`)).toContain(`data-error-for="${id}"`);
    }
    expect(attribute(tagById(page.html, 'pay'), 'type')).toBe('submit');
    expect(textById(page.html, 'pay')).toBe('Pay 10.00 USD');
    expect(tagById(page.html, 'form-errors')).toContain('role="alert"');
  });

  it('posts the form to actionUrl without browser validation', () => {
    const form = tagById(page.html, 'card-form');
    expect(attribute(form, 'method')).toBe('post');
    expect(attribute(form, 'action')).toBe('/checkout/tok_3f2a/pay');
    expect(attribute(form, 'novalidate')).toBe('');
  });

  it.each([
    ['pan', { inputmode: 'numeric', autocomplete: 'cc-number' }],
    ['expires', { placeholder: 'MM/YY', autocomplete: 'cc-exp' }],
    ['holder', { autocomplete: 'cc-name' }],
    ['cvv', { inputmode: 'numeric', autocomplete: 'cc-csc', maxlength: '4' }],
  ] as const)('marks up #%s for autofill and the right keyboard', (id, expected) => {
    const input = tagById(page.html, id);
    for (const [name, value] of Object.entries(expected)) expect(attribute(input, name)).toBe(value);
  });

  it('shows the product and the amount', () => {
    expect(textById(page.html, 'product')).toBe('Order #1001');
    expect(textById(page.html, 'amount')).toBe('10.00 USD');
    expect(textById(renderPaymentPage(paymentInput({ amountMinor: 1000, currency: 'JPY', exponent: 0 })).html, 'amount')).toBe('1,000 JPY');
  });

  it('never renders back a card number or CVV, even when they are passed as values or in errors', () => {
    const values = { holder: 'JOHN DOE', expires: '09/2030', pan: PAN, cvv: CVV } as PaymentPageInput['values'];
    const html = renderPaymentPage(paymentInput({ values, errors: [{ field: 'pan', message: 'bad' }] })).html;
    expect(html).not.toContain(PAN);
    expect(html).not.toContain(CVV);
    expect(attribute(tagById(html, 'pan'), 'value')).toBeUndefined();
    expect(attribute(tagById(html, 'cvv'), 'value')).toBeUndefined();
    expect(attribute(tagById(html, 'holder'), 'value')).toBe('JOHN DOE');
    expect(attribute(tagById(html, 'expires'), 'value')).toBe('09/2030');
  });

  it('escapes the product, the holder and the messages it echoes', () => {
    const html = renderPaymentPage(
      paymentInput({
        product: '<script>alert(1)</script>',
        values: { holder: '"><img src=x onerror=alert(1)>' },
        errors: [{ field: 'card', message: '<b>declined</b> & "gone"' }],
      }),
    ).html;
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(textById(html, 'product')).toBe('<script>alert(1)</script>');
    expect(attribute(tagById(html, 'holder'), 'value')).toBe('"><img src=x onerror=alert(1)>');
  });

  it('shows server errors next to their fields, others in #form-errors, and focuses the first bad field', () => {
    const html = renderPaymentPage(
      paymentInput({
        errors: [
          { field: 'cvv', message: 'cvv is wrong' },
          { field: 'expires', message: 'expiry is wrong' },
          { field: 'card', message: 'card was declined' },
        ],
      }),
    ).html;
    expect(textById(html, 'cvv-error')).toBe('cvv is wrong');
    expect(textById(html, 'expires-error')).toBe('expiry is wrong');
    expect(textById(html, 'pan-error')).toBe('');
    expect(attribute(tagById(html, 'cvv'), 'aria-invalid')).toBe('true');
    expect(attribute(tagById(html, 'pan'), 'aria-invalid')).toBeUndefined();
    expect(attribute(tagById(html, 'expires'), 'autofocus')).toBe('');
    expect(attribute(tagById(html, 'cvv'), 'autofocus')).toBeUndefined();
    expect(textById(html, 'form-errors')).toContain('card was declined');
    expect(textById(html, 'form-errors')).toContain('Please correct the highlighted fields.');
  });

  it('leaves #form-errors empty when there are no errors', () => {
    expect(textById(page.html, 'form-errors')).toBe('');
  });

  // checkout.js checks the trimmed value against data-pattern and data-min/max-length; the hosted
  // form's server check (parseCardForm) must reach the same verdict on every value (check digits and expiry
  // dates not in the past here: card-checks.test.ts covers those).
  it.each([
    ['pan', '4111111111111111', true],
    ['pan', '4111 1111 1111 1111', true],
    ['pan', ' 4111111111111111110 ', true],
    ['pan', '501800000009', true], // Maestro issues 12 digits
    ['pan', '41111111111', false],
    ['pan', '41111111111111111111', false],
    ['pan', '4111-1111-1111-1111', false],
    ['expires', '01/2030', true],
    ['expires', '12/2030', true],
    ['expires', ' 12/2030 ', true],
    ['expires', '00/2030', false],
    ['expires', '13/2030', false],
    ['expires', '1/2030', false],
    ['expires', '12/30', true],
    ['expires', '12 / 30', true],
    ['expires', '12/030', false],
    ['holder', 'JOHN DOE', true],
    ['holder', 'Ab Cd', true],
    ['holder', 'Ab C', true],
    ['holder', ' Ab C ', true],
    ['holder', 'Yi', true],
    ['holder', 'X', true],
    ['holder', '李', true],
    ['holder', 'Ян', true],
    ['holder', "Mary-Jane O'Neil Jr.", true],
    ['holder', 'José Ñúñez', true],
    ['holder', 'X'.repeat(100), true],
    ['holder', 'X'.repeat(101), false],
    ['holder', '   ', false],
    ['holder', '.-', false],
    ['holder', 'R2-D2', false],
    ['holder', 'JOHN\tDOE', false],
    ['holder', '李小龍先生', true],
    ['cvv', '123', true],
    ['cvv', ' 123 ', true],
    ['cvv', '12', false],
    ['cvv', '12345', false],
    ['cvv', '12a', false],
  ] as const)('agrees with the server on %s = %j (valid: %s)', (field, value, valid) => {
    const input = tagById(page.html, field);
    const pattern = attribute(input, 'data-pattern');
    const lengthMin = Number(attribute(input, 'data-min-length') ?? 0);
    const lengthMax = Number(attribute(input, 'data-max-length') ?? Infinity);
    const trimmed = value.trim();
    const browserVerdict = trimmed.length >= lengthMin && trimmed.length <= lengthMax && (pattern === undefined || new RegExp(pattern, 'u').test(trimmed));
    const form = { pan: '4111111111111111', expires: '12/2030', holder: 'JOHN DOE', cvv: '123', [field]: value };
    const serverResult = parseCardForm(form);
    const serverVerdict = !('invalidFields' in serverResult);
    expect(serverVerdict).toBe(valid);
    expect(browserVerdict).toBe(valid);
  });

  it('takes its browser patterns from the API card schema and the card checks, so there is one copy of each rule', () => {
    const patterns = { pan: PAN_PATTERN, expires: FORM_EXPIRES_PATTERN, holder: HOLDER_PATTERN, cvv: CVV_PATTERN };
    for (const [field, pattern] of Object.entries(patterns)) expect(attribute(tagById(page.html, field), 'data-pattern')).toBe(pattern);
  });
});
