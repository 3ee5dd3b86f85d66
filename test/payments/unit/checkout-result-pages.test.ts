import { describe, expect, it } from 'vitest';
import { merchantRefusalOf } from '../../../src/payments/routes/checkout/decline-texts.ts';
import { CHECKOUT_LOCALES, checkoutText } from '../../../src/payments/routes/checkout/locales.ts';
import { renderOtpPage } from '../../../src/payments/routes/checkout/otp-page.ts';
import { renderPaymentPage, renderResultPage, renderWaitingPage } from '../../../src/payments/routes/checkout/pages.ts';
import { renderPayoutPage } from '../../../src/payments/routes/checkout/payout-page.ts';
import { hasSeenResult, seenResultCookie } from '../../../src/payments/routes/checkout/repeat-visit.ts';
import { stateText } from '../../../src/payments/routes/checkout/state-texts.ts';
import { renderRefusedPage } from '../../../src/payments/routes/checkout/status-pages.ts';
import { stepText } from '../../../src/payments/routes/checkout/step-texts.ts';
import { renderChallengePage, renderCompletedPage } from '../../../src/sandbox-adapter/three-d-secure-page.ts';
import { threeDSecureText } from '../../../src/sandbox-adapter/three-d-secure-texts.ts';
import { textById } from './checkout-markup.ts';

const RESULT = { product: 'Tea set', amountText: '42.00 EUR' };

// Issue 19: the pages say what happened, promise nothing they cannot keep, and always leave a way out.
describe.each(CHECKOUT_LOCALES)('the result pages in %s', (locale) => {
  const text = checkoutText(locale);
  const state = stateText(locale);

  it('say a decline is final, without offering a retry the page does not have', () => {
    const { html } = renderResultPage({ locale, status: 'declined', ...RESULT, reason: 'Card declined by issuer' });
    expect(html).toContain(text.resultMessage.declined);
    expect(html).not.toContain('try again');
    expect(html).not.toContain('重试');
    expect(html).not.toContain('再度お試し');
  });

  it('go back to the shop when its URL is known, else say the page may be closed', () => {
    const withShop = renderResultPage({ locale, status: 'declined', ...RESULT, backUrl: 'https://shop.example/' }).html;
    expect(withShop).toContain('id="back-to-shop"');
    expect(withShop).not.toContain('id="close-page"');
    for (const status of ['declined', 'expired', 'cancelled', 'approved', 'authorized', 'refunded'] as const) {
      const alone = renderResultPage({ locale, status, ...RESULT }).html;
      expect(alone, status).not.toContain('id="back-to-shop"');
      expect(textById(alone, 'close-page'), status).toBe(state.closePage);
    }
    expect(renderResultPage({ locale, status: 'pending', ...RESULT }).html).not.toContain('id="close-page"');
  });

  it('have no "already complete" line for an authorization, which is still to be charged', () => {
    expect(state.reopened.authorized).toBeUndefined();
    expect(state.reopened.expired).toBeUndefined(); // the expired page says it once, in its message
    expect(state.reopened.approved).toBeDefined();
  });

  it('blame the shop, not the bank, when its own saved-card schedule refused the charge', () => {
    const { html } = renderResultPage({ locale, status: 'declined', ...RESULT, reason: 'recurring_too_soon: the series allows one charge every 30 days' });
    expect(html).toContain('data-decline-class="series_interval"');
    expect(html).not.toContain('recurring_too_soon');
  });

  it('show the test-mode band on every page of a sandbox payment only', () => {
    const pages = (testMode: boolean) => [
      renderPaymentPage({ token: 'a'.repeat(32), locale, product: 'Tea', amountMinor: 4200, currency: 'EUR', exponent: 2, actionUrl: '/x', testMode }).html,
      renderResultPage({ locale, status: 'approved', ...RESULT, testMode }).html,
      renderWaitingPage({ locale, statusUrl: '/s', testMode }).html,
      renderRefusedPage({ locale, testMode }).html,
      renderPayoutPage({ locale, status: 'approved', amountText: '15.00 USD', orderNumber: null, testMode }).html,
    ];
    for (const html of pages(true)) expect(textById(html, 'test-mode-band')).toBe(state.testModeBand);
    for (const html of pages(false)) expect(html).not.toContain('test-mode-band');
  });

  it('say a wrong secure code once: the notice, not the provider message that repeats it', () => {
    const steps = stepText(locale);
    const input = {
      locale,
      ...RESULT,
      request: { kind: 'sms' as const, length: 6, message: 'That code is not right. Try again.', attemptsLeft: null, resendAllowed: true },
      attemptsLeft: 2,
      resendWaitS: 0,
      codeUrl: '/code',
      resendUrl: '/resend',
    };
    const rejected = renderOtpPage({ ...input, notice: 'code_rejected' }).html;
    expect(textById(rejected, 'step-notice')).toBe(steps.notices.code_rejected);
    expect(rejected).not.toContain('That code is not right');
    expect(textById(rejected, 'step-message')).toBe(steps.codeMessage.sms);
    const first = renderOtpPage({ ...input, request: { ...input.request, message: 'Enter the code we sent.' }, notice: null }).html;
    expect(textById(first, 'step-message')).toBe('Enter the code we sent.');
  });
});

describe('a repeat visit', () => {
  it('is known by the cookie the first view of the result set, on the payment path only', () => {
    const cookie = seenResultCookie('a'.repeat(32), true);
    expect(cookie).toContain(`Path=/checkout/${'a'.repeat(32)}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('Secure');
    expect(hasSeenResult(undefined)).toBe(false);
    expect(hasSeenResult('other=1')).toBe(false);
    expect(hasSeenResult(`other=1; ${cookie.split(';')[0]}`)).toBe(true);
  });
});

describe('merchantRefusalOf', () => {
  it.each([
    ['recurring_too_soon: the series allows one charge every 30 days', 'series_interval'],
    ['recurring_expired: the series ended', 'series_ended'],
    ['wallet_token_unknown: no such token', 'saved_card_unavailable'],
    ['Card declined by issuer', null],
    [null, null],
  ])('reads %j as %s', (reason, refusal) => {
    expect(merchantRefusalOf(reason)).toBe(refusal);
  });
});

describe.each(CHECKOUT_LOCALES)('the sandbox 3-D Secure page in %s', (locale) => {
  it('carries the test-mode band on every page', () => {
    const band = threeDSecureText(locale).testModeBand;
    const challenge = renderChallengePage({ locale, completeUrl: '/c', amountMinor: 100, currency: 'USD', panMasked: null, transactionId: 't' });
    expect(textById(challenge, 'test-mode-band')).toBe(band);
    expect(textById(renderCompletedPage(locale, 'approved', null), 'test-mode-band')).toBe(band);
  });
});
