import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway } from '../../support/production-gateway.ts';

const engines = await testEngines();

const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const AMEX = '3782 822463 10005';
const VISA = '4111 1111 1111 1111';
const CUSTOMER = { email: 'yi@example.com', ip: '203.0.113.7' };

// Issue 19: every real card and every name. The rules by brand (domain/card-brand.ts) hold on the hosted form and on
// Host-to-Host alike; the holder is 1–100 letters of any script, trimmed; a sandbox payment says it is a test.
describe.each(engines)('card rules by brand and holder names on %s', (engine) => {
  let harness: Harness;
  let adapter: FakeAdapter;
  let merchant: TestMerchant;

  beforeAll(async () => {
    harness = await startHarness(engine);
    adapter = await startFakeAdapter();
    merchant = await harness.createMerchant('Card rules shop');
    await addProductionGateway(harness, merchant.id, adapter);
    adapter.respond('pay', (request) => reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`)));
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
  });

  const create = (key: string, extra: Record<string, unknown> = {}) =>
    harness.merchantRequest(key, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { product: 'Tea set', amount: 4200, currency: 'EUR', callbackUrl: 'https://merchant.example/callback', ...extra },
    });
  const hostedPayment = async (key = merchant.productionKey) => {
    const created = await create(key);
    expect(created.statusCode, created.body).toBe(200);
    return created.json().token as string;
  };
  const postCard = (token: string, card: Record<string, string>, locale = 'en') =>
    harness.app.inject({
      method: 'POST',
      url: `/checkout/${token}?locale=${locale}`,
      headers: FORM_HEADERS,
      payload: new URLSearchParams({ expires: '12/2030', ...card }).toString(),
    });
  const page = (url: string) => harness.app.inject({ method: 'GET', url, headers: { accept: BROWSER_ACCEPT } });
  const sentCard = (token: string) => adapter.requestsFor('pay', token)[0]?.body.params as Record<string, string> | undefined;
  const storedHolder = async (token: string) =>
    (await harness.merchantRequest(merchant.productionKey, { method: 'GET', url: `/api/v1/payments/${token}` })).json().payment.card?.holder;

  describe('Host-to-Host', () => {
    it.each([
      ['an American Express card: 15 digits and a 4-digit code', { pan: AMEX, holder: 'Grace Hopper', cvv: '1234' }, 'Grace Hopper'],
      ['a holder of two Latin letters', { pan: VISA, holder: 'Yi', cvv: '321' }, 'Yi'],
      ['a holder of one Han character', { pan: VISA, holder: '李', cvv: '321' }, '李'],
      ['a holder of two Cyrillic letters, trimmed', { pan: VISA, holder: '  Ян ', cvv: '321' }, 'Ян'],
    ])('takes %s', async (_name, card, sentHolder) => {
      const created = await create(merchant.productionKey, { card: { expires: '12/2030', ...card }, customer: CUSTOMER });
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json().payment.status).toBe('approved');
      expect(sentCard(created.json().token)).toMatchObject({ pan: card.pan.replaceAll(' ', ''), cvv: card.cvv });
      expect(await storedHolder(created.json().token)).toBe(sentHolder);
    });

    it.each([
      ['a 3-digit code on an American Express card', { pan: AMEX, cvv: '123' }, 'card.cvv', 'must be 4 digits for American Express'],
      ['a 4-digit code on a Visa card', { pan: VISA, cvv: '1234' }, 'card.cvv', 'must be 3 digits for Visa'],
      ['a 16-digit American Express number', { pan: '3782 8224 6310 0052', cvv: '1234' }, 'card.pan', 'must have 15 digits for American Express'],
      ['a number whose check digit is wrong', { pan: '4111 1111 1111 1112', cvv: '123' }, 'card.pan', 'fails the Luhn check: a digit is mistyped'],
    ])('refuses %s with 422, sending nothing', async (_name, card, field, message) => {
      const created = await create(merchant.productionKey, { card: { expires: '12/2030', holder: 'Grace Hopper', ...card }, customer: CUSTOMER });
      expect(created.statusCode, created.body).toBe(422);
      expect(created.json().errors).toEqual([{ code: 'invalid_field', field, message }]);
    });

    it('refuses a holder with digits, or with no letter at all', async () => {
      for (const holder of ['R2-D2', ' . ']) {
        const created = await create(merchant.productionKey, { card: { pan: VISA, expires: '12/2030', holder, cvv: '321' }, customer: CUSTOMER });
        expect(created.statusCode, holder).toBe(422);
        expect(created.json().errors.map((error: { field: string }) => error.field)).toEqual(['card.holder']);
      }
    });
  });

  describe('the hosted form', () => {
    it('takes an American Express card with its 4-digit code and a one-character Han name', async () => {
      const token = await hostedPayment();
      const posted = await postCard(token, { pan: AMEX, holder: '李', cvv: '1234' });
      expect(posted.statusCode, posted.body).toBe(303);
      expect(sentCard(token)).toMatchObject({ pan: AMEX.replaceAll(' ', ''), cvv: '1234' });
      expect(await storedHolder(token)).toBe('李');
    });

    it.each([
      ['en', { pan: AMEX, holder: 'Yi', cvv: '123' }, 'cvv', 'Enter the 4-digit security code of your American Express card.'],
      ['zh', { pan: '3782 8224 6310 0052', holder: 'Yi', cvv: '1234' }, 'pan', 'American Express 卡号为 15 位，请对照您的银行卡核对。'],
      ['jp', { pan: VISA, holder: 'Yi', cvv: '1234' }, 'cvv', 'Visa カードの 3 桁のセキュリティコードを入力してください。'],
    ])('answers a card its brand cannot have with the form again in %s (422), saying why', async (locale, card, field, message) => {
      const token = await hostedPayment();
      const posted = await postCard(token, card, locale);
      expect(posted.statusCode).toBe(422);
      expect(posted.body).toContain(`<p class="field-error" id="${field}-error" data-error-for="${field}" aria-live="polite">${message}</p>`);
      expect(adapter.requestsFor('pay', token)).toHaveLength(0);
    });

    it('gives the page the rules of every brand, generated from the one table', async () => {
      const token = await hostedPayment();
      const shown = await page(`/checkout/${token}?locale=en`);
      const rulesAttribute = /data-card-rules="([^"]*)"/.exec(shown.body)?.[1] ?? '';
      const rules = JSON.parse(rulesAttribute.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&#39;', "'"));
      expect(rules.brands['American Express']).toMatchObject({ panLengths: [15], cvvLength: 4 });
      expect(rules.unknown).toEqual({ panLengths: [12, 13, 14, 15, 16, 17, 18, 19], cvvLength: 3 });
      expect(shown.body).toContain('id="card-brand"');
    });
  });

  describe('the test-mode band', () => {
    it('shows on every page of a sandbox payment and on none of a production one', async () => {
      const sandboxToken = await hostedPayment(merchant.sandboxKey);
      for (const locale of ['en', 'zh', 'jp']) {
        const shown = await page(`/checkout/${sandboxToken}?locale=${locale}`);
        expect(shown.body).toContain('id="test-mode-band"');
      }
      expect((await page(`/checkout/${sandboxToken}?locale=en`)).body).toContain('Test mode — no real money moves');
      const productionToken = await hostedPayment();
      expect((await page(`/checkout/${productionToken}?locale=en`)).body).not.toContain('test-mode-band');
    });
  });
});
