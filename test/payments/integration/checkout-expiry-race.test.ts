import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway } from '../../support/production-gateway.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };
const CARD_FORM = new URLSearchParams({ pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' }).toString();

// Issue 18 item 0: a card form posted once the payment's expires_at has passed, before the expiry worker moved it to
// expired, is not charged: leaving init checks the status and expires_at in one conditional update.
describe.each(engines)('a hosted card form posted after expires_at on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let adapter: FakeAdapter;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant('Expiry merchant');
    adapter = await startFakeAdapter();
    await addProductionGateway(harness, merchant.id, adapter);
    adapter.respond('pay', (request) => reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`)));
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
  });

  const hostedPayment = async (orderNumber: string) => {
    const created = await harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { ...validPaymentA, currency: 'EUR', orderNumber, redirectFailUrl: 'https://shop.example/sorry' },
    });
    expect(created.statusCode, created.body).toBe(200);
    return created.json().token as string;
  };
  const stored = async (token: string) =>
    (await queryRows<{ status: string; card_mask: string | null }>(harness.database, sql`select status, card_mask from payments where token = ${token}`))[0];
  const postCard = (token: string, locale: string) =>
    harness.app.inject({ method: 'POST', url: `/checkout/${token}?locale=${locale}`, headers: FORM_HEADERS, payload: CARD_FORM });

  it.each([
    ['en', 'The time to complete this payment ran out and your card was not charged.'],
    ['ja', 'このお支払いの手続き期限が過ぎたため、カードへの請求は行われていません。'],
  ])('answers the localized expired page (%s) and sends nothing to the adapter', async (locale, expiredText) => {
    const token = await hostedPayment(`expired-form-${locale}`);
    await harness.database.db.execute(sql`update payments set expires_at = now() - interval '50 milliseconds' where token = ${token}`);
    const posted = await postCard(token, locale);
    expect(posted.statusCode).toBe(410); // the link is gone for good
    expect(posted.headers['content-type']).toContain('text/html');
    expect(posted.body).toContain(expiredText);
    expect(adapter.requestsFor('pay', token)).toHaveLength(0);
    expect(await stored(token)).toEqual({ status: 'init', card_mask: null }); // the expiry worker expires it and tells the merchant
  });

  it('still charges a form posted within the lifetime', async () => {
    const token = await hostedPayment('live-form');
    const posted = await postCard(token, 'en');
    expect(posted.statusCode).toBe(303);
    expect(adapter.requestsFor('pay', token)).toHaveLength(1);
    expect((await stored(token))?.status).toBe('approved');
  });
});
