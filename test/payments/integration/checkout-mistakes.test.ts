import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardCheckText } from '../../../src/payments/routes/checkout/card-check-texts.ts';
import { declineText } from '../../../src/payments/routes/checkout/decline-texts.ts';
import { DECLINE_REASONS } from '../../../src/sandbox-adapter/test-cards.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway } from '../../support/production-gateway.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { textById } from '../unit/checkout-markup.ts';

const engines = await testEngines();

// An expiry two months back, far from any month boundary the UTC−12 rule leans on.
function pastExpiry(digitsOfYear: 2 | 4): string {
  const past = new Date();
  past.setUTCDate(1);
  past.setUTCMonth(past.getUTCMonth() - 2);
  return `${String(past.getUTCMonth() + 1).padStart(2, '0')}/${String(past.getUTCFullYear()).slice(-digitsOfYear)}`;
}
const NEXT_YEAR_YY = String(new Date().getUTCFullYear() + 1).slice(-2);
const GOOD_CARD = { pan: '4111 1111 1111 1111', expires: `09/${NEXT_YEAR_YY}`, holder: 'Ada Lovelace', cvv: '321' };

describe.each(engines)('typing mistakes on the hosted form, on %s', (engine) => {
  let harness: Harness;
  let adapter: FakeAdapter;
  let merchant: TestMerchant;

  beforeAll(async () => {
    harness = await startHarness(engine);
    adapter = await startFakeAdapter();
    merchant = await harness.createMerchant();
    await addProductionGateway(harness, merchant.id, adapter);
    adapter.respond('pay', (request) => reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`)));
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
  });

  const createPayment = async (locale = 'en') => {
    const created = await harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { product: 'Order #11', amount: 1100, currency: 'EUR', locale, callbackUrl: 'https://merchant.example/callback' },
    });
    expect(created.statusCode, created.body).toBe(200);
    return created.json().token as string;
  };
  const postForm = (token: string, card: Record<string, string>) =>
    harness.app.inject({
      method: 'POST',
      url: `/checkout/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(card).toString(),
    });
  const statusOf = async (token: string) =>
    (await harness.merchantRequest(merchant.productionKey, { method: 'GET', url: `/api/v1/payments/${token}` })).json().payment.status;

  it.each([
    ['en', 'pan', { pan: '4111 1111 1111 1112' }, 'panCheckDigit'],
    ['zh', 'pan', { pan: '4242 4242 4242 4241' }, 'panCheckDigit'],
    ['jp', 'expires', { expires: pastExpiry(4) }, 'cardExpired'],
    ['en', 'expires', { expires: pastExpiry(2) }, 'cardExpired'],
    ['en', 'expires', { expires: '01/2020' }, 'cardExpired'],
  ] as const)('in %s refuses a bad %s (%j) with the form again, sends nothing, and a good card still pays', async (locale, field, mistake, message) => {
    const token = await createPayment(locale);
    const refused = await postForm(token, { ...GOOD_CARD, ...mistake });
    expect(refused.statusCode).toBe(422);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(textById(refused.body, `${field}-error`)).toBe(cardCheckText(locale)[message]);
    expect(refused.body).toContain('id="card-form"');
    expect(await statusOf(token)).toBe('init');
    expect(adapter.requestsFor('pay', token)).toHaveLength(0);

    const paid = await postForm(token, GOOD_CARD);
    expect(paid.statusCode).toBeLessThan(400);
    expect(await statusOf(token)).toBe('approved');
    expect(adapter.requestsFor('pay', token)).toHaveLength(1);
  });

  it.each([
    [`12/${NEXT_YEAR_YY}`, `12/${NEXT_YEAR_YY}`],
    [`12 / 20${NEXT_YEAR_YY}`, `12/${NEXT_YEAR_YY}`],
    [`03/20${NEXT_YEAR_YY}`, `03/${NEXT_YEAR_YY}`],
  ])('takes the expiry %j as printed on the card and sends the gateway %j', async (expires, sent) => {
    const token = await createPayment();
    const paid = await postForm(token, { ...GOOD_CARD, expires });
    expect(paid.statusCode).toBeLessThan(400);
    const [payRequest] = adapter.requestsFor('pay', token);
    expect(payRequest?.body?.params?.expires).toBe(sent);
  });
});

describe.each(engines)('an expired card sent Host-to-Host, through the sandbox, on %s', (engine) => {
  let server: ServerHarness;
  let merchant: { sandboxKey: string };

  beforeAll(async () => {
    server = await startServerHarness(engine);
    merchant = await server.createMerchant();
  });
  afterAll(async () => server?.close());

  it.each(['4242 4242 4242 4242', '4000 0000 0000 3220', '4111 1111 1111 1111'])(
    'is declined "Expired card" with %s; the API keeps those words, the page says it in the customer\'s language',
    async (pan) => {
      // The API keeps spec 2.1's mm/yyyy and no expiry rule of its own: the sandbox, as an issuer, declines.
      const created = await server.call('POST', '/api/v1/payments', {
        key: merchant.sandboxKey,
        body: {
          product: 'Order #12',
          amount: 1200,
          currency: 'EUR',
          callbackUrl: 'https://merchant.example/callback',
          locale: 'zh',
          card: { pan, expires: '01/2020', holder: 'Ada Lovelace', cvv: '321' },
          customer: { email: 'ada@example.com', ip: '203.0.113.7' },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body.payment.status).toBe('declined');
      const token = created.body.token as string;
      const stored = await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.sandboxKey });
      expect(stored.body.payment).toMatchObject({ status: 'declined', decline_reason: `gateway response error: ${DECLINE_REASONS.expiredCard}` });

      const page = await server.call('GET', `/checkout/${token}`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(textById(page.body as string, 'result-reason')).toBe(declineText('zh').reason.expired_card);
      expect(page.body as string).not.toContain(DECLINE_REASONS.expiredCard);
    },
  );

  it('links a declined page back to the shop: the origin of redirectSuccessUrl when no redirectFailUrl was given', async () => {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: {
        product: 'Order #14',
        amount: 1400,
        currency: 'EUR',
        callbackUrl: 'https://merchant.example/callback',
        redirectSuccessUrl: 'https://shop.example/thanks?order=14',
        card: { pan: '4000 0000 0000 0002', expires: `12/20${NEXT_YEAR_YY}`, holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(created.body.payment.status).toBe('declined');
    const page = await server.call('GET', `/checkout/${created.body.token}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.body as string).toMatch(/<a id="back-to-shop"[^>]*href="https:\/\/shop\.example\/"/);
    expect(textById(page.body as string, 'result-reason')).toBe(declineText('en').reason.do_not_honor);
  });

  it('still approves a card that expires next year', async () => {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: {
        product: 'Order #13',
        amount: 1300,
        currency: 'EUR',
        callbackUrl: 'https://merchant.example/callback',
        card: { pan: '4242 4242 4242 4242', expires: `12/20${NEXT_YEAR_YY}`, holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(created.body.payment.status).toBe('approved');
  });
});
