import { describe, expect, it } from 'vitest';
import type { PayoutRequest, PayRequest } from '@payrail/adapter-kit';
import { acmeSettingsOf } from '../src/acme-settings.ts';
import { verifyAcmeSignature } from '../src/acme-signature.ts';
import type { AcmeCharge } from '../src/acme-types.ts';
import { adapterConfigFromEnv, ConfigError } from '../src/config.ts';
import { callbackStatusOf, chargeAnswerOf, chargeBodyOf, expiryOf, payoutAnswerOf, payoutBodyOf, reasonOf, refundAnswerOf } from '../src/mapping.ts';
import { createSealer, SealError } from '../src/sealed-context.ts';
import { acmeSignature } from '../simulator/webhooks.ts';
import { ACME_TEST_CARDS, chargeScenarioOf, passesLuhn, payoutScenarioOf } from '../simulator/test-cards.ts';

const LINKS = { webhookUrl: 'https://adapter.example/webhooks/acme', sealedContext: 'v1.sealed' };
const NOW = new Date('2026-06-15T12:00:00Z');

const payRequest = (params: Partial<PayRequest['params']> = {}): PayRequest => ({
  method_name: 'pay',
  params: {
    customer: { email: 'ada@example.com', ip: '203.0.113.7', first_name: 'Ada', last_name: 'Lovelace', country: 'GB' },
    pan: '4111 1111 1111 1111',
    cvv: '737',
    expires: '09/31',
    ...params,
  },
  payment: { token: 'tok_1', merchant_private_key: 'mk', gateway_amount: 1999, gateway_currency: 'EUR', product: 'Order #1' },
  settings: {},
  processing_url: 'https://pay.example/return/tok_1',
  callback_url: 'https://pay.example/callbacks/tok_1',
});

const charge = (fields: Partial<AcmeCharge>): AcmeCharge => ({
  id: 'ch_1',
  object: 'charge',
  amount_cents: 1999,
  currency_code: 'eur',
  state: 'authorised',
  refusal_code: null,
  reference: 'tok_1',
  next_action: null,
  card: { last4: '1111', brand: 'visa' },
  ...fields,
});

describe('Payrail /pay → Acme charge', () => {
  it('maps amount, currency, card, customer, reference, return and webhook URLs', () => {
    expect(chargeBodyOf(payRequest(), LINKS)).toEqual({
      body: {
        amount_cents: 1999,
        currency_code: 'eur',
        card: { number: '4111111111111111', exp_month: 9, exp_year: 2031, cvc: '737' },
        customer: { email: 'ada@example.com', ip_address: '203.0.113.7', name: 'Ada Lovelace', country: 'GB' },
        reference: 'tok_1',
        description: 'Order #1',
        webhook_url: LINKS.webhookUrl,
        return_url: 'https://pay.example/return/tok_1',
        metadata: { payrail_token: 'tok_1', payrail_context: 'v1.sealed' },
      },
    });
  });

  it.each([
    ['no card at all', { pan: undefined }, 'Acme Pay needs the card'],
    ['no cvv', { cvv: undefined }, 'security code'],
    ['no expiry', { expires: undefined }, 'MM/YY'],
    ['a stored card only', { pan: undefined, card: { card_token_from: 'rt_1' } }, 'Acme Pay needs the card'],
  ])('refuses a request with %s, before calling Acme', (_case, params, text) => {
    const mapped = chargeBodyOf(payRequest(params as Partial<PayRequest['params']>), LINKS);
    expect(mapped).toEqual({ refusal: expect.stringContaining(text) });
  });

  it.each([
    ['01/30', { exp_month: 1, exp_year: 2030 }],
    ['12/99', { exp_month: 12, exp_year: 2099 }],
    ['13/30', null],
    ['1/30', null],
    ['00/30', null],
  ])('reads expires %s', (expires, expected) => {
    expect(expiryOf(expires)).toEqual(expected);
  });
});

describe('Acme charge → Payrail answer', () => {
  it.each([
    ['authorised', 'approved'],
    ['refused', 'declined'],
    ['processing', 'pending'],
    ['challenge_required', 'pending'],
    ['partially_captured', 'pending'], // a state Acme may add later: never final
    ['AUTHORISED', 'approved'], // the kit folds case
  ])('maps state %s to %s', (state, status) => {
    expect(chargeAnswerOf(charge({ state, refusal_code: state === 'refused' ? 'card_declined' : null })).status).toBe(status);
  });

  it('answers an authorised charge with its id, amount and currency in Payrail’s words', () => {
    expect(chargeAnswerOf(charge({}))).toEqual({
      result: true,
      status: 'approved',
      gateway_token: 'ch_1',
      amount: 1999,
      currency: 'EUR',
      gateway_details: { acme_state: 'authorised', card_last4: '1111', card_brand: 'visa' },
    });
  });

  it.each([
    ['card_declined', 'Card declined by the issuer'],
    ['insufficient_funds', 'Insufficient funds'],
    ['expired_card', 'Card expired'],
    ['incorrect_cvc', 'Incorrect CVV'],
    ['do_not_honor', 'Do not honor'],
    ['invalid_number', 'Invalid card number'],
    ['authentication_failed', '3-D Secure authentication failed'],
    ['amount_limit_exceeded', 'Amount exceeds the card limit'],
  ])('declines refusal %s with the reason "%s" (details and declination_reason)', (code, reason) => {
    expect(chargeAnswerOf(charge({ state: 'refused', refusal_code: code }))).toMatchObject({
      result: true,
      status: 'declined',
      details: reason,
      declination_reason: reason,
    });
  });

  it('keeps an unknown refusal code and Acme’s message in the reason, and never leaves a decline without one', () => {
    expect(reasonOf('velocity_limit', 'Too many attempts')).toBe('Declined by Acme Pay (velocity_limit: Too many attempts)');
    expect(reasonOf(null, null)).toBe('Declined by Acme Pay');
    expect(reasonOf('constructor')).toBe('Declined by Acme Pay (constructor)');
  });

  it('sends the customer to Acme’s challenge page when the charge requires it', () => {
    const answer = chargeAnswerOf(
      charge({ state: 'challenge_required', next_action: { type: 'redirect', redirect_url: 'https://acme.example/challenge/ch_1' } }),
    );
    expect(answer).toMatchObject({ status: 'pending', redirect_request: { url: 'https://acme.example/challenge/ch_1', type: 'get' } });
  });

  it('turns final answers into callback claims, the reason only on a decline', () => {
    expect(callbackStatusOf(chargeAnswerOf(charge({})))).toEqual({ status: 'approved', amount: 1999, currency: 'EUR', gateway_token: 'ch_1' });
    expect(callbackStatusOf(chargeAnswerOf(charge({ state: 'refused', refusal_code: 'do_not_honor' })))).toEqual({
      status: 'declined',
      amount: 1999,
      currency: 'EUR',
      gateway_token: 'ch_1',
      reason: 'Do not honor',
    });
  });
});

describe('payouts and refunds', () => {
  const payoutRequest = (params: Partial<PayoutRequest['params']>): PayoutRequest => ({
    method_name: 'payout',
    params: { amount: 2500, currency: 'EUR', customer: { email: 'payee@example.com', ip: '203.0.113.7', first_name: 'Grace' }, ...params },
    payment: { token: 'po_tok' },
    settings: {},
  });

  it('pays out to the card when one is given, else to the bank account, else refuses', () => {
    expect(payoutBodyOf(payoutRequest({ card: { pan: '4111 1111 1111 1111' } }), LINKS)).toMatchObject({
      body: { amount_cents: 2500, currency_code: 'eur', destination: { type: 'card', card_number: '4111111111111111' }, recipient: { name: 'Grace' } },
    });
    expect(payoutBodyOf(payoutRequest({ bank_account: { account_number: 'DE89370400440532013000', bank_code: 'COBADEFF' } }), null)).toEqual({
      body: {
        amount_cents: 2500,
        currency_code: 'eur',
        destination: { type: 'bank_account', account_number: 'DE89370400440532013000', bank_code: 'COBADEFF' },
        recipient: { name: 'Grace', email: 'payee@example.com' },
        reference: 'po_tok',
        metadata: { payrail_token: 'po_tok' },
      },
    });
    expect(payoutBodyOf(payoutRequest({ bank_account: { requisite_type: 'sbp' } }), LINKS)).toEqual({ refusal: expect.stringContaining('card') });
  });

  it.each([
    ['paid', 'approved'],
    ['failed', 'declined'],
    ['in_transit', 'pending'],
    ['returned', 'pending'],
  ])('maps payout state %s to %s', (state, status) => {
    const answer = payoutAnswerOf({
      id: 'po_1',
      object: 'payout',
      amount_cents: 2500,
      currency_code: 'eur',
      state,
      failure_code: 'recipient_refused',
      reference: 'x',
    });
    expect(answer.status).toBe(status);
    if (status === 'declined') expect(answer.details).toBe('Payout refused by the recipient bank');
  });

  it.each([
    ['succeeded', 'approved'],
    ['failed', 'declined'],
    ['pending', 'pending'],
  ])('maps refund state %s to %s', (state, status) => {
    const answer = refundAnswerOf({
      id: 're_1',
      object: 'refund',
      charge_id: 'ch_1',
      amount_cents: 500,
      currency_code: 'eur',
      state,
      failure_code: 'refund_declined',
    });
    expect(answer).toMatchObject({ result: true, status, amount: 500, currency: 'EUR', gateway_token: 're_1' });
  });
});

describe('the adapter’s keys and settings', () => {
  const sealer = createSealer('a-seal-key-of-at-least-32-characters!');
  const context = { callbackUrl: 'https://pay.example/cb/1', signKey: 's'.repeat(32), merchantPrivateKey: 'mk_1', webhookSecret: 'whsec_0123456789abcdef' };

  it('seals the callback context so it opens again, deterministically (Acme’s idempotency compares bodies)', () => {
    const sealed = sealer.seal(context);
    expect(sealer.unseal(sealed)).toEqual(context);
    expect(sealer.seal(context)).toBe(sealed);
    expect(sealed).not.toContain('mk_1');
    expect(sealer.seal({ ...context, merchantPrivateKey: 'mk_2' })).not.toBe(sealed);
  });

  it('refuses a context another key sealed, or one altered by a single character', () => {
    const sealed = sealer.seal(context);
    expect(() => createSealer('another-seal-key-of-32-characters!!').unseal(sealed)).toThrow(SealError);
    const altered = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.at(-1)}`;
    expect(() => sealer.unseal(altered)).toThrow(SealError);
    expect(() => sealer.unseal('v2.abc')).toThrow(SealError);
    expect(() => createSealer('short')).toThrow(SealError);
  });

  it('verifies Acme-Signature as the simulator makes it, and nothing else', () => {
    const body = Buffer.from('{"id":"evt_1"}');
    const now = 1_800_000_000;
    const secret = 'whsec_0123456789abcdef';
    expect(verifyAcmeSignature(secret, body, acmeSignature(secret, body.toString(), now), now)).toEqual({ valid: true });
    expect(verifyAcmeSignature(secret, body, `${acmeSignature(secret, body.toString(), now)},v1=${'0'.repeat(64)}`, now)).toEqual({ valid: true });
    expect(verifyAcmeSignature(secret, Buffer.from('{"id":"evt_2"}'), acmeSignature(secret, body.toString(), now), now).valid).toBe(false);
    expect(verifyAcmeSignature('whsec_other_secret_value', body, acmeSignature(secret, body.toString(), now), now).valid).toBe(false);
    expect(verifyAcmeSignature(secret, body, acmeSignature(secret, body.toString(), now - 301), now).valid).toBe(false);
    expect(verifyAcmeSignature(secret, body, undefined, now).valid).toBe(false);
    expect(verifyAcmeSignature(secret, body, `t=${now}`, now).valid).toBe(false);
  });

  it('reads provider keys from gateway_settings, or from the top level, and says what is missing', () => {
    const base = { api_key: 'ak', sign_key: 'k'.repeat(32) };
    const keys = { acme_base_url: 'https://api.acme.example/', acme_webhook_secret: 'whsec_0123456789abcdef' };
    expect(acmeSettingsOf({ ...base, gateway_settings: keys as never })).toEqual({
      apiKey: 'ak',
      signKey: 'k'.repeat(32),
      baseUrl: 'https://api.acme.example',
      webhookSecret: keys.acme_webhook_secret,
    });
    expect(acmeSettingsOf({ ...base, ...keys } as never)).toMatchObject({ baseUrl: 'https://api.acme.example' });
    expect(acmeSettingsOf({ ...keys, sign_key: base.sign_key } as never)).toEqual({ problem: expect.stringContaining('api_key') });
    expect(acmeSettingsOf({ ...base, ...keys, acme_base_url: 'javascript:alert(1)' } as never)).toEqual({ problem: expect.stringContaining('acme_base_url') });
    expect(acmeSettingsOf({ ...base, ...keys, acme_webhook_secret: 'short' } as never)).toEqual({ problem: expect.stringContaining('acme_webhook_secret') });
  });

  it('configures itself from the environment, refusing what would leave it open', () => {
    const env = { ACME_ADAPTER_SIGN_KEYS: `${'a'.repeat(32)}, ${'b'.repeat(32)}`, ACME_ADAPTER_SEAL_KEY: 'x'.repeat(32), ACME_ADAPTER_PORT: '3105' };
    expect(adapterConfigFromEnv(env)).toEqual({
      options: { signKeys: ['a'.repeat(32), 'b'.repeat(32)], sealKey: 'x'.repeat(32), host: '127.0.0.1', port: 3105, logLevel: 'info' },
      callbackCaFile: null,
    });
    expect(() => adapterConfigFromEnv({ ...env, ACME_ADAPTER_SIGN_KEYS: ' , ' })).toThrow(ConfigError);
    expect(() => adapterConfigFromEnv({ ...env, ACME_ADAPTER_SEAL_KEY: 'short' })).toThrow(ConfigError);
    expect(() => adapterConfigFromEnv({ ...env, ACME_ADAPTER_PORT: '70000' })).toThrow(ConfigError);
  });
});

describe('the simulator’s deterministic outcomes', () => {
  const scenarioOf = (number: string, amountCents = 1000, expYear = 2030) => chargeScenarioOf({ number, expMonth: 12, expYear, amountCents, now: NOW });

  it('gives every test card its flow and refusal', () => {
    expect(scenarioOf(ACME_TEST_CARDS.authorised)).toMatchObject({ flow: 'immediate', refusalCode: null });
    expect(scenarioOf(ACME_TEST_CARDS.cardDeclined)).toMatchObject({ flow: 'immediate', refusalCode: 'card_declined' });
    expect(scenarioOf(ACME_TEST_CARDS.processingRefused)).toMatchObject({ flow: 'processing_webhook', refusalCode: 'do_not_honor' });
    expect(scenarioOf(ACME_TEST_CARDS.processingSilent)).toMatchObject({ flow: 'processing_silent', refusalCode: null });
    expect(scenarioOf(ACME_TEST_CARDS.challenge)).toMatchObject({ flow: 'challenge' });
    expect(scenarioOf(ACME_TEST_CARDS.slow)).toMatchObject({ flow: 'slow' });
    expect(scenarioOf(ACME_TEST_CARDS.refundsFail)).toMatchObject({ refundsFail: true });
    for (const number of Object.values(ACME_TEST_CARDS)) expect(passesLuhn(number), number).toBe(true);
  });

  it('refuses a bad number, a past expiry and an amount above the limit before the card’s own scenario', () => {
    expect(scenarioOf('4111111111111112').refusalCode).toBe('invalid_number');
    expect(scenarioOf(ACME_TEST_CARDS.authorised, 1000, 2025).refusalCode).toBe('expired_card');
    expect(scenarioOf(ACME_TEST_CARDS.challenge, 5_000_001).refusalCode).toBe('amount_limit_exceeded');
    expect(scenarioOf(ACME_TEST_CARDS.authorised, 5_000_000).refusalCode).toBeNull();
  });

  it('decides payouts by destination and amount', () => {
    expect(payoutScenarioOf({ cardNumber: ACME_TEST_CARDS.authorised, accountNumber: null }, 100)).toEqual({ flow: 'immediate', failureCode: null });
    expect(payoutScenarioOf({ cardNumber: ACME_TEST_CARDS.cardDeclined, accountNumber: null }, 100)).toEqual({
      flow: 'immediate',
      failureCode: 'recipient_refused',
    });
    expect(payoutScenarioOf({ cardNumber: ACME_TEST_CARDS.processingAuthorised, accountNumber: null }, 100)).toEqual({ flow: 'in_transit', failureCode: null });
    expect(payoutScenarioOf({ cardNumber: null, accountNumber: 'DE0000' }, 100)).toEqual({ flow: 'immediate', failureCode: 'invalid_account' });
    expect(payoutScenarioOf({ cardNumber: null, accountNumber: 'DE1234' }, 5_000_001).failureCode).toBe('amount_limit_exceeded');
  });
});
