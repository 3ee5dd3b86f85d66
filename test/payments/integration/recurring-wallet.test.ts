import { sql } from 'drizzle-orm';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutText } from '../../../src/payments/routes/checkout/locales.ts';
import { testEngines } from '../../support/databases.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const DAY_MS = 24 * 60 * 60 * 1000;
const CARD = { pan: '4242 4242 4242 4242', expires: '12/2031', holder: 'Ada Lovelace', cvv: '321' };

// spec 2.1 walletToken: the customer confirms on the hosted page before the saved card is charged.
describe.each(engines)('walletToken payments on the hosted page on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;
  let merchant: { id: number; sandboxKey: string };

  beforeAll(async () => {
    server = await startServerHarness(engine);
    receiver = await startReceiver();
    merchant = await server.createMerchant('Wallet shop');
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const rows = <Row>(query: ReturnType<typeof sql>) => queryRows<Row>(server.running.app.payrail.database, query);
  const payment = (body: Record<string, unknown>, key = merchant.sandboxKey) =>
    server.call('POST', '/api/v1/payments', {
      key,
      body: { product: 'Monthly tea box', amount: 1250, currency: 'EUR', callbackUrl: `${receiver.url}/payrail`, ...body },
    });
  const series = async (extra: Record<string, unknown> = {}) => {
    const first = await payment({ recurring: true, card: CARD, customer: { email: 'ada@example.com' }, ...extra });
    expect(first.body.payment.status).toBe('approved');
    return first.body as { token: string; walletToken: string; recurringToken: string };
  };
  const walletPayment = async (walletToken: string, extra: Record<string, unknown> = {}) => {
    const created = await payment({ walletToken, ...extra });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body as { token: string; processingUrl: string; payment: { status: string } };
  };
  const page = async (url: string) => {
    const response = await request(url, { dispatcher: server.dispatcher });
    return { status: response.statusCode, headers: response.headers, html: await response.body.text() };
  };
  const postForm = async (path: string, form: Record<string, string> = {}, headers: Record<string, string> = {}) => {
    const response = await request(`${server.baseUrl}${path}`, {
      method: 'POST',
      dispatcher: server.dispatcher,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });
    return { status: response.statusCode, headers: response.headers, html: await response.body.text() };
  };
  // post/redirect/get: a form post answers 303 and the GET shows where the payment stands.
  const shownAfter = async (posted: { status: number; headers: Record<string, unknown> }) => {
    expect(posted.status).toBe(303);
    return page(`${server.baseUrl}${String(posted.headers['location'])}`);
  };
  const detailOf = async (token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.sandboxKey })).body.payment;

  it('creates the payment init and shows the customer a confirmation page with the saved card, not a card form', async () => {
    const first = await series();
    const created = await walletPayment(first.walletToken, { locale: 'zh' });
    expect(created.payment.status).toBe('init');
    const shown = await page(created.processingUrl);
    expect(shown.status).toBe(200);
    expect(String(shown.headers['content-security-policy'])).toContain("form-action 'self'");
    expect(shown.html).toContain(checkoutText('zh').walletTitle);
    expect(shown.html).toContain('•••• 4242');
    expect(shown.html).toContain('Monthly tea box');
    expect(shown.html).toContain(`action="/checkout/${created.token}/confirm?locale=zh"`);
    expect(shown.html).not.toContain('id="pan"');
    expect((await detailOf(created.token)).status).toBe('init');
  });

  it('charges the saved card when the customer confirms, once, and notifies the merchant', async () => {
    const first = await series();
    const created = await walletPayment(first.walletToken, { orderNumber: 'wallet-1' });
    const confirmed = await postForm(`/checkout/${created.token}/confirm?locale=en`);
    expect(confirmed.headers['location']).toBe(`/checkout/${created.token}?locale=en`);
    expect((await shownAfter(confirmed)).html).toContain('data-status="approved"');
    const detail = await detailOf(created.token);
    expect(detail).toMatchObject({ status: 'approved', card: { mask: '424242******4242' } });
    const params = detail.interaction_logs.find((log: any) => log.entry?.request?.body?.params).entry.request.body.params;
    expect(params.card).toEqual({ card_token_from: expect.stringMatching(/^sbx_rc_/) });
    expect(params).not.toHaveProperty('pan');
    await expect.poll(() => receiver.received.filter((item) => item.body.includes(created.token)).length, { timeout: 15_000 }).toBe(1);
    const again = await postForm(`/checkout/${created.token}/confirm`);
    expect(again.status).toBe(303);
    const [charges] = await rows<{ n: number | string }>(
      sql`select count(*) as n from ledger_transactions t join payments p on p.id = t.payment_id where p.token = ${created.token}`,
    );
    expect(Number(charges?.n)).toBe(1);
  });

  it('confirms a double click once', async () => {
    const first = await series();
    const created = await walletPayment(first.walletToken);
    const [one, two] = await Promise.all([postForm(`/checkout/${created.token}/confirm`), postForm(`/checkout/${created.token}/confirm`)]);
    // The second click shows where the payment stands (303 to it, or the page itself when it raced the first).
    expect([one.status, two.status].every((status) => status === 200 || status === 303)).toBe(true);
    const [sent] = await rows<{ n: number | string }>(sql`select count(*) as n from sandbox_transactions where payment_token = ${created.token}`);
    expect(Number(sent?.n)).toBe(1);
    expect((await detailOf(created.token)).status).toBe('approved');
  });

  it('declines the payment with the reason when the customer confirms sooner than recurring_data.days allow', async () => {
    const first = await series({ recurring_data: { days: 30, exp_date: '20991231' } });
    const created = await walletPayment(first.walletToken);
    const confirmed = await shownAfter(await postForm(`/checkout/${created.token}/confirm`));
    expect(confirmed.html).toContain('data-status="declined"');
    expect(confirmed.html).toContain('data-decline-class="series_interval"'); // the customer reads its class, never the raw reason
    expect(confirmed.html).not.toContain('recurring_too_soon');
    const detail = await detailOf(created.token);
    expect(detail.status).toBe('declined');
    expect(detail.decline_reason).toMatch(/^recurring_too_soon: the series allows one charge every 30 days/);
    await rows(
      sql`update payments set last_recurring_charge_at = ${new Date(Date.now() - 31 * DAY_MS).toISOString()}::timestamptz where token = ${first.token}`,
    );
    const later = await walletPayment(first.walletToken);
    expect((await shownAfter(await postForm(`/checkout/${later.token}/confirm`))).html).toContain('data-status="approved"');
  });

  it('takes no confirm posted by another site, nor a card posted to a wallet payment', async () => {
    const first = await series();
    const created = await walletPayment(first.walletToken);
    const crossSite = await postForm(`/checkout/${created.token}/confirm`, {}, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(303);
    const card = await postForm(`/checkout/${created.token}`, { pan: '4000000000000002', expires: '12/2031', holder: 'Mallory Doe', cvv: '123' });
    expect(card.status).toBe(303);
    expect((await detailOf(created.token)).status).toBe('init');
    const sameOrigin = await postForm(`/checkout/${created.token}/confirm`, {}, { 'sec-fetch-site': 'same-origin' });
    expect((await shownAfter(sameOrigin)).html).toContain('data-status="approved"');
  });

  it('does not confirm a payment that is not a wallet payment', async () => {
    const plain = await payment({});
    const confirmed = await postForm(`/checkout/${plain.body.token}/confirm`);
    expect(confirmed.status).toBe(303);
    expect((await detailOf(plain.body.token)).status).toBe('init');
  });

  it('refuses unknown wallet tokens and wallet payments carrying card data (422)', async () => {
    const unknown = await payment({ walletToken: 'c'.repeat(32) });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].code).toBe('wallet_token_unknown');
    const first = await series();
    const withCard = await payment({ walletToken: first.walletToken, card: CARD, customer: { email: 'ada@example.com' } });
    expect(withCard.body.errors).toEqual([expect.objectContaining({ code: 'invalid_field', field: 'card' })]);
  });

  it('refuses the confirm of a disabled merchant with the refusal page, charging nothing', async () => {
    const shop = await server.createMerchant('Soon disabled shop');
    const first = await payment({ recurring: true, card: CARD, customer: { email: 'ada@example.com' } }, shop.sandboxKey);
    const created = await payment({ walletToken: first.body.walletToken }, shop.sandboxKey);
    const disabled = await server.call('POST', `/api/admin/v1/merchants/${shop.id}/disable`, { key: server.adminKey });
    expect(disabled.status).toBe(200);
    const confirmed = await postForm(`/checkout/${created.body.token}/confirm`);
    expect(confirmed.status).toBe(403);
    expect(confirmed.html).toContain(checkoutText('en').refusedTitle);
    const [sent] = await rows<{ n: number | string }>(sql`select count(*) as n from sandbox_transactions where payment_token = ${created.body.token}`);
    expect(Number(sent?.n)).toBe(0);
  });
});
