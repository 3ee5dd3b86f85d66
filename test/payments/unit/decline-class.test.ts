import { describe, expect, it } from 'vitest';
import { declineText } from '../../../src/payments/routes/checkout/decline-texts.ts';
import { CHECKOUT_LOCALES } from '../../../src/payments/routes/checkout/locales.ts';
import { renderResultPage } from '../../../src/payments/routes/checkout/pages.ts';
import { DECLINE_CLASSES, declineClassOf } from '../../../src/payments/domain/decline-class.ts';
import { TEST_CARD_IN_PRODUCTION_REASON } from '../../../src/platform/lib/sandbox-test-cards.ts';
import { DECLINE_REASONS } from '../../../src/sandbox-adapter/test-cards.ts';
import { attribute, tagById, textById } from './checkout-markup.ts';

describe('declineClassOf', () => {
  it.each([
    // the sandbox's own reasons
    [DECLINE_REASONS.doNotHonor, 'do_not_honor'],
    [DECLINE_REASONS.insufficientFunds, 'insufficient_funds'],
    [DECLINE_REASONS.expiredCard, 'expired_card'],
    [DECLINE_REASONS.threeDSecureFailed, 'authentication_failed'],
    [DECLINE_REASONS.declinedAfterThreeDSecure, 'do_not_honor'], // authenticated, then refused by the issuer
    ['Wrong secure code entered 3 times', 'authentication_failed'],
    ['Phone number is not linked to the card', 'other'],
    [TEST_CARD_IN_PRODUCTION_REASON, 'other'],
    [DECLINE_REASONS.cardDataMissing, 'other'],
    // the example adapter and the usual acquirer wording
    ['Card declined by the issuer', 'do_not_honor'],
    ['The card was declined.', 'do_not_honor'],
    ['do_not_honor', 'do_not_honor'],
    ['DO NOT HONOUR', 'do_not_honor'],
    ['The card has insufficient funds.', 'insufficient_funds'],
    ['NSF', 'insufficient_funds'],
    ['Card expired', 'expired_card'],
    ['The card has expired.', 'expired_card'],
    ['expired_card', 'expired_card'],
    ['The cardholder failed the challenge.', 'authentication_failed'],
    ['authentication_failed', 'authentication_failed'],
    ['3DS authentication failed', 'authentication_failed'],
    // ISO 8583 response codes passed on as they are
    ['05', 'do_not_honor'],
    ['51 - Insufficient funds', 'insufficient_funds'],
    ['54', 'expired_card'],
    // as Payrail stores a gateway's reason (domain/adapter-outcome.ts)
    ['gateway response error: Insufficient funds', 'insufficient_funds'],
    ['gateway response error: 05', 'do_not_honor'],
    ['gateway response error: Expired card', 'expired_card'],
    // nothing a customer can act on
    ['declined by the merchant', 'other'],
    ['the authorization was voided (decline_request)', 'other'],
    ['Payment expired before it was paid', 'other'],
    ['', 'other'],
    [null, 'other'],
    [undefined, 'other'],
  ])('%j → %s', (reason, declineClass) => {
    expect(declineClassOf(reason)).toBe(declineClass);
  });

  it('stays quick on a huge reason', () => {
    const started = performance.now();
    expect(declineClassOf(`${'card '.repeat(100_000)}`)).toBe('other');
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe.each(CHECKOUT_LOCALES)('the result page in %s', (locale) => {
  const page = (status: Parameters<typeof renderResultPage>[0]['status'], reason: string | null, backUrl?: string | null) =>
    renderResultPage({ locale, status, product: 'Blue teapot', amountText: 'forty-two', reason, backUrl }).html;

  it.each([
    ['Insufficient funds', 'insufficient_funds'],
    ['Do not honor', 'do_not_honor'],
    ['Expired card', 'expired_card'],
    ['3-D Secure authentication failed', 'authentication_failed'],
    ['gateway said: <b>E_917 risk</b>', 'other'],
  ] as const)('shows the class of %j in words, never the gateway text', (reason, declineClass) => {
    const html = page('declined', reason);
    expect(textById(html, 'result-reason')).toBe(declineText(locale).reason[declineClass]);
    expect(attribute(tagById(html, 'result-reason'), 'data-decline-class')).toBe(declineClass);
    expect(html).not.toContain(reason);
    expect(html).not.toContain('E_917');
  });

  it('says nothing of the merchant words on a cancelled page', () => {
    expect(page('cancelled', 'cancelled by the merchant')).not.toContain('cancelled by the merchant');
  });

  it.each(['declined', 'expired', 'cancelled'] as const)('links a %s payment back to the shop when the merchant gave a fail URL', (status) => {
    const url = 'https://shop.example/fail?token=abc&status=declined';
    const html = page(status, 'Do not honor', url);
    expect(attribute(tagById(html, 'back-to-shop'), 'href')).toBe(url);
    expect(textById(html, 'back-to-shop')).toBe(declineText(locale).backToShop);
    expect(page(status, 'Do not honor')).not.toContain('back-to-shop');
  });

  it('links nothing on a successful page, nor to anything but a web address', () => {
    expect(page('approved', null, 'https://shop.example/fail')).not.toContain('back-to-shop');
    expect(page('declined', 'Do not honor', 'javascript:alert(1)')).not.toContain('back-to-shop');
  });

  it('has a message of its own for every class', () => {
    const texts = declineText(locale);
    for (const declineClass of DECLINE_CLASSES) expect(texts.reason[declineClass].trim()).not.toBe('');
    expect(new Set(Object.values(texts.reason)).size).toBe(DECLINE_CLASSES.length);
    if (locale !== 'en') expect(texts.backToShop).not.toBe(declineText('en').backToShop);
  });
});
