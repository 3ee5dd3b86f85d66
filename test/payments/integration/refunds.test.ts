import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBookViolations as findLedgerViolations } from '../../../src/payments/flows/ledger-check.ts';
import { testEngines } from '../../support/databases.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';
import { merchantAccounts, type MerchantAccounts } from '../../support/ledger-accounts.ts';

const engines = await testEngines();

interface Terms {
  percent: number;
  fixed: number;
}

describe.each(engines)('refunds through the sandbox on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;

  beforeAll(async () => {
    // A sandbox answer slower than its response timeout leaves a refund pending (settled later by its check): the
    // timeout is generous so that these tests see the sandbox's answer even on a loaded machine.
    server = await startServerHarness(engine, { PAYRAIL_SANDBOX_RESPONSE_TIMEOUT_S: '10' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const database = () => server.running.app.payrail.database;
  const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

  const newMerchant = async (commissions: { pay?: Terms; refund?: Terms } = {}) => {
    const merchant = await server.createMerchant('Refund merchant');
    if (Object.keys(commissions).length > 0) {
      const set = await server.call('PUT', `/api/admin/v1/merchants/${merchant.id}/commissions`, { key: server.adminKey, body: commissions });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
    }
    return merchant;
  };

  // A Host-to-Host sandbox payment: 4242 4242 4242 4242 is approved at once, 4000 0000 0000 0002 declined.
  const pay = async (key: string, amount = 1000, pan = '4242 4242 4242 4242') => {
    const created = await server.call('POST', '/api/v1/payments', {
      key,
      body: {
        product: 'Order #55',
        amount,
        currency: 'USD',
        callbackUrl: `${receiver.url}/refunds`,
        orderNumber: 'refund-55',
        card: { pan, expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return { token: created.body.token as string, status: created.body.payment.status as string };
  };
  const approvedPayment = async (key: string, amount = 1000) => {
    const paid = await pay(key, amount);
    expect(paid.status).toBe('approved');
    return paid.token;
  };
  const refund = (key: string, body: unknown, headers: Record<string, string> = {}) => server.call('POST', '/api/v1/refunds', { key, body, headers });
  const paymentOf = async (key: string, token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key })).body.payment;
  const walletOf = async (key: string) => (await server.call('GET', '/api/v1/balance?currency=USD', { key })).body.wallet;
  const accountOf = async (merchantId: number, account: keyof MerchantAccounts) =>
    (await merchantAccounts(database().db, merchantId, 'sandbox', 'USD'))[account];
  const notificationsAbout = (token: string) =>
    receiver.received.map((item) => JSON.parse(item.body) as Record<string, unknown>).filter((body) => body['token'] === token);

  it('refunds what is left when no amount is given: the payment becomes refunded, the ledger moves amount + commission', async () => {
    const merchant = await newMerchant({ pay: { percent: 2.5, fixed: 30 }, refund: { percent: 1, fixed: 10 } });
    const token = await approvedPayment(merchant.sandboxKey);
    // a second payment's money, so available covers the refund's commission: 1,020 is more than either payment's row
    // of available holds, so the reservation gathers them (ledger-repo.ts ledgerTransaction runs it again)
    await approvedPayment(merchant.sandboxKey);
    expect(await walletOf(merchant.sandboxKey)).toMatchObject({ available: 2 * (1000 - 55), hold: 0 });

    const refunded = await refund(merchant.sandboxKey, { token });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body).toEqual({
      success: true,
      result: 0,
      status: 200,
      errors: [],
      token,
      refund: { token: expect.stringMatching(/^[0-9a-f]{32}$/), amount: 1000, status: 'approved', currency: 'USD', commission: 20 },
    });
    const refundToken = refunded.body.refund.token as string;

    const payment = await paymentOf(merchant.sandboxKey, token);
    expect(payment).toMatchObject({ status: 'refunded', captured_amount: 1000, refunded_amount: 1000 });
    expect(payment.refunds).toEqual([
      { token: refundToken, amount: 1000, status: 'approved', currency: 'USD', created_at: expect.any(String), decline_reason: null },
    ]);
    expect(payment.interaction_logs.some((log: { kind: string }) => log.kind === 'refund')).toBe(true);
    expect(await walletOf(merchant.sandboxKey)).toMatchObject({ available: 2 * 945 - 1020, hold: 0 });
    expect(await accountOf(merchant.id, 'fees')).toBe(2 * 55 + 20);
    expect(await accountOf(merchant.id, 'customers')).toBe(-2000 + 1000);

    const record = await server.call('GET', `/api/v1/refunds/${refundToken}`, { key: merchant.sandboxKey });
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({
      success: true,
      token,
      refund: { token: refundToken, amount: 1000, status: 'approved', currency: 'USD', commission: 20, decline_reason: null, finalized_at: expect.any(String) },
    });
    expect(await findLedgerViolations(database().db)).toEqual([]);

    await eventually(() => notificationsAbout(refundToken).length).toBe(1);
    expect(notificationsAbout(refundToken)[0]).toMatchObject({ type: 'refund', status: 'approved', paymentToken: token, amount: 1000, currency: 'USD' });
    await eventually(() => notificationsAbout(token).filter((body) => body['status'] === 'refunded').length).toBe(1);
    expect(notificationsAbout(token).find((body) => body['status'] === 'refunded')).toMatchObject({ type: 'pay' });
  });

  it('refunds in parts until the captured amount is used up, then answers 422 refund_exceeds_captured', async () => {
    const merchant = await newMerchant();
    const token = await approvedPayment(merchant.sandboxKey);

    const first = await refund(merchant.sandboxKey, { token, amount: 300 });
    expect(first.body.refund).toMatchObject({ amount: 300, status: 'approved', commission: 0 });
    expect(await paymentOf(merchant.sandboxKey, token)).toMatchObject({ status: 'approved', refunded_amount: 300 });

    const tooMuch = await refund(merchant.sandboxKey, { token, amount: 701 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors).toEqual([{ code: 'refund_exceeds_captured', field: 'amount', message: expect.stringContaining('refundable amount 700') }]);

    const rest = await refund(merchant.sandboxKey, { token, amount: 700 });
    expect(rest.body.refund).toMatchObject({ amount: 700, status: 'approved' });
    const payment = await paymentOf(merchant.sandboxKey, token);
    expect(payment).toMatchObject({ status: 'refunded', refunded_amount: 1000 });
    expect(payment.refunds.map((item: { amount: number }) => item.amount)).toEqual([300, 700]);

    for (const body of [{ token }, { token, amount: 1 }]) {
      const nothingLeft = await refund(merchant.sandboxKey, body);
      expect(nothingLeft.status).toBe(422);
      expect(nothingLeft.body.errors[0].code).toBe('refund_exceeds_captured');
    }
    expect(await walletOf(merchant.sandboxKey)).toMatchObject({ available: 0, hold: 0 });
    expect(await findLedgerViolations(database().db)).toEqual([]);
  });

  it('answers 409 invalid_state, naming the status, for a payment that is not approved', async () => {
    const merchant = await newMerchant();
    const declined = await pay(merchant.sandboxKey, 1000, '4000 0000 0000 0002');
    expect(declined.status).toBe('declined');
    const unpaid = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: { product: 'Order #56', amount: 500, currency: 'USD', callbackUrl: `${receiver.url}/refunds` },
    });
    for (const [token, status] of [
      [declined.token, 'declined'],
      [unpaid.body.token as string, 'init'],
    ] as const) {
      const refused = await refund(merchant.sandboxKey, { token });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ success: false, status: 409, errors: [{ code: 'invalid_state', message: expect.stringContaining(status) }] });
      expect((await paymentOf(merchant.sandboxKey, token)).refunds).toEqual([]);
    }
  });

  it('answers 422 insufficient_balance and reserves nothing when available does not cover amount + commission', async () => {
    const merchant = await newMerchant({ pay: { percent: 5, fixed: 0 } });
    const token = await approvedPayment(merchant.sandboxKey);
    const refused = await refund(merchant.sandboxKey, { token });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].code).toBe('insufficient_balance');
    expect(await paymentOf(merchant.sandboxKey, token)).toMatchObject({ status: 'approved', refunded_amount: 0, refunds: [] });
    expect(await walletOf(merchant.sandboxKey)).toMatchObject({ available: 950, hold: 0 });
    const sent = await queryRows(database(), sql`select 1 from sandbox_refunds where payment_token = ${token}`);
    expect(sent).toEqual([]); // the adapter was never asked

    const covered = await refund(merchant.sandboxKey, { token, amount: 950 });
    expect(covered.body.refund).toMatchObject({ amount: 950, status: 'approved' });
    expect(await walletOf(merchant.sandboxKey)).toMatchObject({ available: 0, hold: 0 });
  });

  it("answers 404 for an unknown token, another merchant's payment or refund, and the other environment", async () => {
    const owner = await newMerchant();
    const stranger = await newMerchant();
    const token = await approvedPayment(owner.sandboxKey);
    const owned = await refund(owner.sandboxKey, { token, amount: 100 });
    const refundToken = owned.body.refund.token as string;

    for (const [key, body] of [
      [stranger.sandboxKey, { token }],
      [owner.productionKey, { token }],
      [owner.sandboxKey, { token: 'f'.repeat(32) }],
      [owner.sandboxKey, { token: 'not-a-token' }],
    ] as const) {
      const missing = await refund(key, body);
      expect(missing.status).toBe(404);
      expect(missing.body.errors[0].code).toBe('not_found');
    }
    for (const key of [stranger.sandboxKey, owner.productionKey]) {
      expect((await server.call('GET', `/api/v1/refunds/${refundToken}`, { key })).status).toBe(404);
    }
    expect((await server.call('GET', `/api/v1/refunds/${refundToken}`, { key: owner.sandboxKey })).status).toBe(200);
    expect((await paymentOf(owner.sandboxKey, token)).refunded_amount).toBe(100);
  });

  it('replays a retry with the same Idempotency-Key: the same refund, refunded once', async () => {
    const merchant = await newMerchant();
    const token = await approvedPayment(merchant.sandboxKey);
    const headers = { 'idempotency-key': `refund-${token}` };
    const first = await refund(merchant.sandboxKey, { token, amount: 400 }, headers);
    const again = await refund(merchant.sandboxKey, { token, amount: 400 }, headers);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const payment = await paymentOf(merchant.sandboxKey, token);
    expect(payment).toMatchObject({ refunded_amount: 400 });
    expect(payment.refunds).toHaveLength(1);
    const reused = await refund(merchant.sandboxKey, { token, amount: 500 }, headers);
    expect(reused.status).toBe(422);
    expect(reused.body.errors[0].code).toBe('idempotency_key_reused');
  });

  it('never lets 20 parallel refunds of one payment exceed what it captured, and keeps the ledger clean', async () => {
    const merchant = await newMerchant();
    const token = await approvedPayment(merchant.sandboxKey);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(merchant.sandboxKey, { token, amount: 150 })));
    const accepted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 422);
    expect(accepted).toHaveLength(6); // 6 × 150 = 900 of 1000; the 7th would exceed it
    expect(refused).toHaveLength(14);
    for (const answer of refused) expect(answer.body.errors[0].code).toBe('refund_exceeds_captured');
    // Each accepted refund is approved, at once or (had the sandbox been slower than its timeout) by its check.
    await eventually(async () => (await paymentOf(merchant.sandboxKey, token)).refunds.map((item: { status: string }) => item.status)).toEqual(
      Array(6).fill('approved'),
    );
    const payment = await paymentOf(merchant.sandboxKey, token);
    expect(payment).toMatchObject({ status: 'approved', captured_amount: 1000, refunded_amount: 900 });
    const approvedSum = payment.refunds
      .filter((item: { status: string }) => item.status === 'approved')
      .reduce((sum: number, item: { amount: number }) => sum + item.amount, 0);
    expect(approvedSum).toBe(900);
    expect(await walletOf(merchant.sandboxKey)).toMatchObject({ available: 100, hold: 0 });
    expect(await findLedgerViolations(database().db)).toEqual([]);
  });

  it('refuses a body that is not a refund request with field errors', async () => {
    const merchant = await newMerchant();
    const token = await approvedPayment(merchant.sandboxKey);
    for (const [body, field] of [
      [{ token, amount: 0 }, 'amount'],
      [{ token, amount: -5 }, 'amount'],
      [{ token, amount: 1.5 }, 'amount'],
      [{ token, ammount: 100 }, 'ammount'],
      [{ amount: 100 }, 'token'],
    ] as const) {
      const refused = await refund(merchant.sandboxKey, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.errors.map((item: { field: string }) => item.field)).toContain(field);
    }
    expect((await server.call('POST', '/api/v1/refunds', { body: { token } })).status).toBe(401);
    expect((await paymentOf(merchant.sandboxKey, token)).refunds).toEqual([]);
  });
});
