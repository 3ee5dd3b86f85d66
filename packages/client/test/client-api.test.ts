import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyPng } from '../../../test/payments/integration/disputes-fixtures.ts';
import { testEngines } from '../../../test/support/databases.ts';
import { startServerHarness, type ServerHarness } from '../../../test/support/server-harness.ts';
import type { Payrail } from '../src/index.ts';
import { approvedCard, clientOf, customer, hostedPayment } from './support.ts';

const engines = await testEngines();

// Issue 23: every merchant operation through @payrail/client against a real Payrail on a real HTTPS socket.
describe.each(engines)('@payrail/client against Payrail on %s', (engine) => {
  let server: ServerHarness;
  let payrail: Payrail;
  let listRequests = 0;

  beforeAll(async () => {
    server = await startServerHarness(engine);
    const merchant = await server.createMerchant('Client shop');
    payrail = clientOf(server, merchant.sandboxKey, {
      fetch: (input, init) => {
        if (init?.method === 'GET' && /\/api\/v1\/payments(\?|$)/.test(String(input))) listRequests += 1;
        return fetch(input, { ...init, dispatcher: server.dispatcher } as RequestInit);
      },
    });
  });
  afterAll(async () => server?.close());

  const approvedPayment = async (amount: number, orderNumber: string) => {
    const created = await payrail.payments.create({ ...hostedPayment(orderNumber), amount, card: approvedCard, customer });
    expect(created.payment.status).toBe('approved');
    return created.token;
  };

  it('creates a payment in each variant: A hosted, B snake_case Host-to-Host, C with bank_account', async () => {
    const hosted = await payrail.payments.create(hostedPayment('variant-a'));
    expect(hosted).toMatchObject({ success: true, payment: { status: 'init' } });
    expect(typeof hosted.processingUrl).toBe('string');

    const snake = await payrail.payments.create({
      product: 'Snake case order',
      amount: 2500,
      currency: 'USD',
      order_number: 'variant-b',
      callback_url: 'https://merchant.example/callback',
      card: approvedCard,
      customer: { email: 'ada@example.com', ip: '203.0.113.7', name: 'Ada', surname: 'Lovelace' },
    });
    expect(snake.payment.status).toBe('approved');

    const withBank = await payrail.payments.create({ ...hostedPayment('variant-c'), bank_account: { bank_name: 'Sber', requisite_type: 'sbp' }, customer });
    expect(Array.isArray(withBank.processingUrl)).toBe(true);
    expect('selectorUrl' in withBank && typeof withBank.selectorUrl).toBe('string');

    const read = await payrail.payments.retrieve(snake.token);
    expect(read.payment).toMatchObject({ token: snake.token, status: 'approved', amount: 2500, order_number: 'variant-b' });
  });

  it('lists every payment page after page, following nextCursor, and stops where the caller stops', async () => {
    for (let index = 0; index < 5; index += 1) await payrail.payments.create(hostedPayment(`listed-${index}`));
    const everything: string[] = [];
    for await (const payment of payrail.payments.list({ operationType: 'pays' })) everything.push(payment.token);
    const before = listRequests;
    const paged: string[] = [];
    for await (const payment of payrail.payments.list({ operationType: 'pays', perPage: 2 })) paged.push(payment.token);
    expect(paged).toEqual(everything);
    expect(new Set(paged).size).toBe(paged.length);
    expect(paged).toHaveLength(8); // three of the variants test, five here
    expect(listRequests - before).toBe(4); // the last page says nextCursor null

    const firstThree: string[] = [];
    const beforeBreak = listRequests;
    for await (const payment of payrail.payments.list({ perPage: 2 })) {
      firstThree.push(payment.token);
      if (firstThree.length === 3) break;
    }
    expect(listRequests - beforeBreak).toBe(2);
    const filtered = [];
    for await (const payment of payrail.payments.list({ orderNumber: 'listed-3' })) filtered.push(payment);
    expect(filtered.map((payment) => payment.order_number)).toEqual(['listed-3']);
  });

  it('refunds an approved payment in part and reads the refund back', async () => {
    const token = await approvedPayment(3000, 'refunded');
    const created = await payrail.refunds.create({ token, amount: 1000 });
    expect(created.refund).toMatchObject({ amount: 1000, currency: 'USD' });
    const read = await payrail.refunds.retrieve(created.refund.token);
    expect(read.refund).toMatchObject({ token: created.refund.token, amount: 1000 });
  });

  it('cancels a payment nobody has paid', async () => {
    const { token } = await payrail.payments.create(hostedPayment('cancelled'));
    const cancelled = await payrail.payments.cancel(token);
    expect(cancelled.payment.status).toBe('cancelled');
  });

  it('captures one two-step payment in part and voids another', async () => {
    const twoStep = (orderNumber: string) => payrail.payments.create({ ...hostedPayment(orderNumber), needConfirmation: true, card: approvedCard, customer });
    const captured = await twoStep('two-step-capture');
    expect(captured.payment.status).toBe('authorized');
    const confirmed = await payrail.payments.confirm(captured.token, { amount: 1000 });
    expect(confirmed.payment).toMatchObject({ status: 'approved', captured_amount: 1000 });
    const voided = await twoStep('two-step-void');
    expect((await payrail.payments.decline(voided.token)).payment.status).toBe('declined');
  });

  it('pays out from the balance, reads the payout and the balance', async () => {
    await approvedPayment(50_000, 'funds');
    const usd = await payrail.balance.retrieve({ currency: 'USD' });
    expect('wallet' in usd && usd.wallet.available).toBeGreaterThan(10_000);
    const payout = await payrail.payouts.create({
      amount: 2000,
      currency: 'USD',
      orderNumber: 'payout-1',
      callbackUrl: 'https://merchant.example/payouts',
      bank_account: { requisite_type: 'card' },
      card: { pan: '5555 5555 5555 4444' },
      customer: { email: 'payee@example.com' },
    });
    expect(payout.payout.token).toBe(payout.token);
    const read = await payrail.payouts.retrieve(payout.token);
    expect(read.payment).toMatchObject({ token: payout.token, operation_type: 'payout', amount: 2000 });
    const all = await payrail.balance.retrieve();
    expect('wallets' in all && all.wallets.map((wallet) => wallet.currency)).toContain('USD');
  });

  it('opens a dispute with an evidence file, reads and lists it, and downloads the file as uploaded', async () => {
    const token = await approvedPayment(4000, 'disputed');
    const png = tinyPng();
    const opened = await payrail.disputes.create({
      token,
      description: 'The customer says the parcel never arrived',
      amount: 1500,
      documents: [{ fileName: 'receipt.png', content: new Uint8Array(png), mediaType: 'image/png' }],
    });
    const dispute = opened.dispute;
    expect(dispute).toMatchObject({ payment_token: token, amount: 1500, status: 'open' });
    expect(dispute.documents).toEqual([expect.objectContaining({ file_name: 'receipt.png', media_type: 'image/png', size: png.length })]);
    expect((await payrail.disputes.retrieve(dispute.token)).dispute.token).toBe(dispute.token);
    const listed = [];
    for await (const item of payrail.disputes.list({ status: 'open', perPage: 1 })) listed.push(item.token);
    expect(listed).toContain(dispute.token);
    const file = await payrail.disputes.downloadDocument(dispute.token, dispute.documents[0]!.id);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);
  });

  it('sends a final notification again and lists its delivery attempts', async () => {
    const token = await approvedPayment(1200, 'resent');
    const resent = await payrail.notifications.resend(token);
    expect(resent.event_id).toMatch(/\S/);
    const attempts = await payrail.notifications.listAttempts(token);
    expect(attempts.success).toBe(true);
  });
});
