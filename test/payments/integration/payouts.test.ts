import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBookViolations as findLedgerViolations } from '../../../src/payments/flows/ledger-check.ts';
import { leaksPan } from '../../support/card-leaks.ts';
import { testEngines } from '../../support/databases.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';
import { merchantAccounts } from '../../support/ledger-accounts.ts';

const engines = await testEngines();

const APPROVED_CARD = '5555 5555 5555 4444';
const DECLINED_CARD = '5105 1051 0510 5100';

describe.each(engines)('payouts through the sandbox on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startServerHarness(engine, { PAYRAIL_LOG_LEVEL: 'error' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const database = () => server.running.app.payrail.database;
  const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

  // A sandbox merchant with money to pay out (an approved Host-to-Host payment, no pay commission) and a payout commission.
  const fundedMerchant = async (availableMinor: number, commission = { percentBp: 150, fixedMinor: 30 }) => {
    const merchant = await server.createMerchant('Payout merchant');
    const paid = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: {
        product: 'Funding order',
        amount: availableMinor,
        currency: 'USD',
        callbackUrl: `${receiver.url}/payments`,
        card: { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(paid.body.payment?.status).toBe('approved');
    await database().db.execute(
      sql`insert into commissions (merchant_id, operation, percent_bp, fixed_minor) values (${merchant.id}, 'payout', ${commission.percentBp}, ${commission.fixedMinor})`,
    );
    return merchant;
  };

  const balances = async (merchantId: number) => {
    const { available, hold, fees, payouts } = await merchantAccounts(database().db, merchantId, 'sandbox', 'USD');
    return { available, hold, fees, payouts };
  };

  const cardPayout = (key: string, pan: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    server.call('POST', '/api/v1/payouts', {
      key,
      headers,
      body: {
        amount: 2000,
        currency: 'USD',
        orderNumber: 'payout-77',
        callbackUrl: `${receiver.url}/payouts`,
        bank_account: { requisite_type: 'card' },
        card: { pan },
        customer: { email: 'payee@example.com', first_name: 'Ada', last_name: 'Lovelace' },
        ...extra,
      },
    });

  const notificationsFor = (token: string) => receiver.received.filter((item) => item.body.includes(token)).map((item) => JSON.parse(item.body));

  it('approves a payout to 5555 5555 5555 4444: available → hold → payouts, the commission to fees, and notifies type payout', async () => {
    const merchant = await fundedMerchant(10_000);
    const created = await cardPayout(merchant.sandboxKey, APPROVED_CARD);
    expect(created.status).toBe(200);
    const token = created.body.token as string;
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(created.body).toEqual({
      success: true,
      result: 0,
      status: 200,
      errors: [],
      token,
      processingUrl: [{ sandbox: `${server.baseUrl}/payouts/${token}?locale=en` }],
      selectorUrl: `${server.baseUrl}/payouts/${token}?locale=en`,
      // 1.5 % of 2000 + 30
      payment: { amount: 2000, currency: 'USD', gateway_amount: 2000, gateway_currency: 'USD', status: 'approved', commission: 60 },
      payout: { token, status: 'approved' },
    });
    expect(await balances(merchant.id)).toEqual({ available: 10_000 - 2060, hold: 0, fees: 60, payouts: 2000 });
    await eventually(() => notificationsFor(token).length).toBe(1);
    expect(notificationsFor(token)[0]).toMatchObject({ token, type: 'payout', status: 'approved', orderNumber: 'payout-77', amount: 2000, currency: 'USD' });
    const detail = (await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.sandboxKey })).body.payment;
    expect(detail).toMatchObject({
      token,
      operation_type: 'payout',
      status: 'approved',
      amount: 2000,
      order_number: 'payout-77',
      card: { mask: '555555******4444' },
      customer: { email: 'payee@example.com', first_name: 'Ada', last_name: 'Lovelace' },
      bank_account: { requisite_type: 'card', bank_name: null, account_number: null },
      commission_data: { commission_value: 1.5, commission_fee: 30, commission_amount: 60 },
    });
    expect(detail.gateway_token).toMatch(/^sbx_/);
    const shown = await server.call('GET', `/checkout/${token}?locale=en`);
    expect(shown.body).toMatchObject({ success: true, token, payment: { status: 'approved', amount: 2000, currency: 'USD' } });
    const ledger = await queryRows<{ kind: string }>(
      database(),
      sql`select t.kind from ledger_transactions t join payments p on p.id = t.payment_id where p.token = ${token} order by t.id`,
    );
    expect(ledger.map((row) => row.kind)).toEqual(['payout_reserved', 'payout_sent']);
    // Its /payout's exchange marker was taken with the row and released with the answer.
    const [marker] = await queryRows<{ kind: string | null; until: string | null }>(
      database(),
      sql`select exchange_kind as kind, exchange_until::text as until from payments where token = ${token}`,
    );
    expect(marker).toEqual({ kind: null, until: null });
  });

  it('declines a payout to 5105 1051 0510 5100 and releases the hold whole, commission included', async () => {
    const merchant = await fundedMerchant(10_000);
    const created = await cardPayout(merchant.sandboxKey, DECLINED_CARD);
    expect(created.status).toBe(200);
    expect(created.body.payment).toMatchObject({ status: 'declined', commission: 60 });
    expect(await balances(merchant.id)).toEqual({ available: 10_000, hold: 0, fees: 0, payouts: 0 });
    const detail = (await server.call('GET', `/api/v1/payments/${created.body.token}`, { key: merchant.sandboxKey })).body.payment;
    expect(detail.decline_reason).toBe('gateway response error: Payout declined by issuer');
    await eventually(() => notificationsFor(created.body.token).length).toBe(1);
    expect(notificationsFor(created.body.token)[0]).toMatchObject({ type: 'payout', status: 'declined' });
  });

  it.each([
    ['sbp', { requisite_type: 'sbp', bank_name: 'Sandbox Bank' }],
    ['account', { requisite_type: 'account', bank_name: 'Sandbox Bank', account_number: '40817810000000000001' }],
  ])('approves a payout to a requisite of type %s: the sandbox bank accepts it without a card', async (_type, bankAccount) => {
    const merchant = await fundedMerchant(10_000);
    const created = await cardPayout(merchant.sandboxKey, APPROVED_CARD, {
      card: undefined,
      bank_account: bankAccount,
      customer: { email: 'payee@example.com', phone: '+79990000000' },
    });
    expect(created.status).toBe(200);
    expect(created.body.payment.status).toBe('approved');
    expect(await balances(merchant.id)).toEqual({ available: 10_000 - 2060, hold: 0, fees: 60, payouts: 2000 });
    const detail = (await server.call('GET', `/api/v1/payments/${created.body.token}`, { key: merchant.sandboxKey })).body.payment;
    expect(detail).toMatchObject({ card: null, bank_account: bankAccount, customer: { phone: '+79990000000' } });
  });

  it('refuses a payout above the available balance with 422 insufficient_balance, storing and sending nothing', async () => {
    const merchant = await fundedMerchant(2059); // 2000 + 60 commission is one unit more
    const refused = await cardPayout(merchant.sandboxKey, APPROVED_CARD);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ success: false, status: 422, errors: [{ code: 'insufficient_balance', field: 'amount' }] });
    const stored = await queryRows<{ count: string }>(
      database(),
      sql`select count(*)::text as count from payments where merchant_id = ${merchant.id} and operation_type = 'payout'`,
    );
    expect(stored[0]?.count).toBe('0');
    expect(await balances(merchant.id)).toEqual({ available: 2059, hold: 0, fees: 0, payouts: 0 });
    const unknownCurrency = await cardPayout(merchant.sandboxKey, APPROVED_CARD, { currency: 'EUR' });
    expect(unknownCurrency.body.errors).toMatchObject([{ code: 'insufficient_balance' }]);
  });

  it('replays an Idempotency-Key retry with the same payout, reserved and sent once', async () => {
    const merchant = await fundedMerchant(10_000);
    const headers = { 'idempotency-key': 'payout-retry-1' };
    const first = await cardPayout(merchant.sandboxKey, APPROVED_CARD, {}, headers);
    const again = await cardPayout(merchant.sandboxKey, APPROVED_CARD, {}, headers);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await balances(merchant.id)).toEqual({ available: 10_000 - 2060, hold: 0, fees: 60, payouts: 2000 });
    const other = await cardPayout(merchant.sandboxKey, APPROVED_CARD, { amount: 1000 }, headers);
    expect(other.status).toBe(422);
    expect(other.body.errors).toMatchObject([{ code: 'idempotency_key_reused' }]);
  });

  it('lists payouts with operationType=payouts, and payments without them', async () => {
    const merchant = await fundedMerchant(10_000);
    const payout = await cardPayout(merchant.sandboxKey, APPROVED_CARD, { orderNumber: 'listed-payout' });
    const payment = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: { product: 'Order #1', amount: 500, currency: 'USD', callbackUrl: `${receiver.url}/payments` },
    });
    expect(payment.status).toBe(200);
    const list = async (operationType: string) =>
      (await server.call('GET', `/api/v1/payments?operationType=${operationType}`, { key: merchant.sandboxKey })).body.payments.map(
        (item: { token: string; operation_type: string }) => [item.token, item.operation_type],
      );
    expect(await list('payouts')).toEqual([[payout.body.token, 'payout']]);
    expect(await list('pays')).toEqual([
      [payment.body.token, 'pay'],
      [expect.any(String), 'pay'], // the funding payment
    ]);
    expect(await list('all')).toHaveLength(3);
  });

  it('keeps only the mask of the recipient card: no table, log or stored response holds the PAN', async () => {
    const merchant = await fundedMerchant(10_000);
    const created = await cardPayout(merchant.sandboxKey, APPROVED_CARD, { orderNumber: 'no-pan' }, { 'idempotency-key': 'no-pan-1' });
    expect(created.status).toBe(200);
    const pan = APPROVED_CARD.replaceAll(' ', '');
    for (const table of ['payments', 'payment_logs', 'idempotency_keys', 'outbox', 'sandbox_transactions']) {
      const rows = await queryRows<Record<string, unknown>>(database(), sql`select * from ${sql.identifier(table)}`);
      expect(leaksPan(rows, pan), table).toBe(false);
    }
    const detail = (await server.call('GET', `/api/v1/payments/${created.body.token}`, { key: merchant.sandboxKey })).body.payment;
    expect(leaksPan(detail, pan)).toBe(false);
    expect(JSON.stringify(detail.interaction_logs)).toContain('555555******4444');
  });

  it('leaves a ledger without violations', async () => {
    expect(await findLedgerViolations(database().db)).toEqual([]);
  });
});
