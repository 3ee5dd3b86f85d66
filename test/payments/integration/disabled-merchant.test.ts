import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutText } from '../../../src/payments/routes/checkout/locales.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway } from '../../support/production-gateway.ts';

const engines = await testEngines();

const CARD_FORM = new URLSearchParams({ pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' }).toString();
const ORDER = { product: 'Order #5', amount: 1500, currency: 'EUR', callbackUrl: 'https://merchant.example/callback' };

describe.each(engines)("a disabled merchant's open checkout pages on %s", (engine) => {
  let harness: Harness;
  let adapter: FakeAdapter;

  beforeAll(async () => {
    harness = await startHarness(engine);
    adapter = await startFakeAdapter();
    adapter.respond('pay', (request) => reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`)));
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
  });

  const merchantWithGateway = async (): Promise<TestMerchant> => {
    const merchant = await harness.createMerchant('Soon disabled');
    await addProductionGateway(harness, merchant.id, adapter);
    return merchant;
  };
  const createPayment = async (merchant: TestMerchant, extra: Record<string, unknown> = {}): Promise<string> => {
    const created = await harness.merchantRequest(merchant.productionKey, { method: 'POST', url: '/api/v1/payments', payload: { ...ORDER, ...extra } });
    expect(created.statusCode, created.body).toBe(200);
    return created.json().token as string;
  };
  const disable = async (merchant: TestMerchant) => {
    const disabled = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchant.id}/disable`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
  };
  const submitCard = (token: string, locale = 'en') =>
    harness.app.inject({
      method: 'POST',
      url: `/checkout/${token}?locale=${locale}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: CARD_FORM,
    });
  const statusOf = async (token: string) => (await harness.app.inject({ method: 'GET', url: `/checkout/${token}/status` })).json().status;

  it('refuses the card form with a page saying the payment cannot be processed, and sends nothing to the adapter', async () => {
    const merchant = await merchantWithGateway();
    const token = await createPayment(merchant);
    await disable(merchant);

    const submitted = await submitCard(token);
    expect(submitted.statusCode).toBe(403);
    expect(submitted.headers['content-type']).toMatch(/^text\/html/);
    expect(submitted.body).toContain(checkoutText('en').refusedTitle);
    expect(submitted.body).toContain(checkoutText('en').refusedMessage);
    expect(submitted.body).not.toContain('4111');
    expect(adapter.requestsFor('pay', token)).toHaveLength(0);
    expect(await statusOf(token)).toBe('init');
  });

  it.each(['zh', 'jp'] as const)('says so in the page locale (%s)', async (locale) => {
    const merchant = await merchantWithGateway();
    const token = await createPayment(merchant);
    await disable(merchant);
    const submitted = await submitCard(token, locale);
    expect(submitted.statusCode).toBe(403);
    expect(submitted.body).toContain(checkoutText(locale).refusedTitle);
    expect(adapter.requestsFor('pay', token)).toHaveLength(0);
  });

  it('refuses the bank_account JSON view, which would send the payment to the adapter', async () => {
    const merchant = await merchantWithGateway();
    const token = await createPayment(merchant, { bank_account: { bank_name: 'Sber', requisite_type: 'sbp' }, customer: { email: 'payer@example.com' } });
    await disable(merchant);

    const opened = await harness.app.inject({ method: 'GET', url: `/checkout/${token}`, headers: { accept: 'application/json' } });
    expect(opened.statusCode).toBe(403);
    expect(opened.json()).toMatchObject({ success: false, result: 1, status: 403, errors: [{ code: 'merchant_disabled' }] });
    expect(adapter.requestsFor('pay', token)).toHaveLength(0);
    expect(await statusOf(token)).toBe('init');
  });

  it('still charges the card of an active merchant', async () => {
    const merchant = await merchantWithGateway();
    const token = await createPayment(merchant);
    const submitted = await submitCard(token);
    expect(submitted.statusCode).toBeLessThan(400);
    expect(adapter.requestsFor('pay', token)).toHaveLength(1);
    expect(await statusOf(token)).toBe('approved');
  });
});
