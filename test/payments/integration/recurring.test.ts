import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';
import { merchantAccounts } from '../../support/ledger-accounts.ts';

const engines = await testEngines();
const HEX_32 = /^[0-9a-f]{32}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

// spec 2.1 recurring / recurringToken / recurring_data, end to end through the sandbox adapter.
describe.each(engines)('recurring payments through the sandbox adapter on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;
  let merchant: { id: number; sandboxKey: string; productionKey: string };
  let otherMerchant: { id: number; sandboxKey: string };

  beforeAll(async () => {
    server = await startServerHarness(engine);
    receiver = await startReceiver();
    merchant = await server.createMerchant('Subscription shop');
    otherMerchant = await server.createMerchant('Another shop');
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const rows = <Row>(query: ReturnType<typeof sql>) => queryRows<Row>(server.running.app.payrail.database, query);
  const payment = (body: Record<string, unknown>, key = merchant.sandboxKey) =>
    server.call('POST', '/api/v1/payments', {
      key,
      body: { product: 'Monthly coffee box', amount: 1500, currency: 'EUR', callbackUrl: `${receiver.url}/payrail`, ...body },
    });
  const firstPayment = async (extra: Record<string, unknown> = {}) => {
    const created = await payment({
      recurring: true,
      card: { pan: '4242 4242 4242 4242', expires: '12/2031', holder: 'Ada Lovelace', cvv: '321' },
      customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      ...extra,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.payment.status).toBe('approved');
    return created.body as { token: string; recurringToken: string; walletToken: string };
  };
  const detailOf = async (token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.sandboxKey })).body.payment;
  const setLastCharge = (token: string, at: Date) =>
    rows(sql`update payments set last_recurring_charge_at = ${at.toISOString()}::timestamptz where token = ${token}`);
  const lastChargeOf = async (token: string) =>
    (await rows<{ at: Date | string | null }>(sql`select last_recurring_charge_at as at from payments where token = ${token}`))[0]?.at ?? null;
  const errorCodeOf = (response: { body: any }) => response.body.errors?.[0]?.code;

  it('issues its own recurringToken and walletToken when a recurring first payment is approved', async () => {
    const first = await firstPayment();
    expect(first.recurringToken).toMatch(HEX_32);
    expect(first.walletToken).toMatch(HEX_32);
    expect(first.walletToken).not.toBe(first.recurringToken);
    const detail = await detailOf(first.token);
    expect(detail).toMatchObject({ status: 'approved', recurring: true, recurringToken: first.recurringToken, walletToken: first.walletToken });
    const [stored] = await rows<{ recurring_gateway_token: string; last_recurring_charge_at: unknown; finalized_at: unknown }>(
      sql`select recurring_gateway_token, last_recurring_charge_at, finalized_at from payments where token = ${first.token}`,
    );
    expect(stored?.recurring_gateway_token).toMatch(/^sbx_rc_/);
    expect(stored?.recurring_gateway_token).not.toBe(first.recurringToken);
    expect(new Date(String(stored?.last_recurring_charge_at)).getTime()).toBe(new Date(String(stored?.finalized_at)).getTime());
  });

  it('issues no tokens to a payment that is not recurring, nor to a declined recurring one', async () => {
    const card = { pan: '4242 4242 4242 4242', expires: '12/2031', holder: 'Ada Lovelace', cvv: '321' };
    const plain = await payment({ card, customer: { email: 'ada@example.com' } });
    expect(plain.body.payment.status).toBe('approved');
    expect(plain.body).not.toHaveProperty('recurringToken');
    const declined = await payment({ recurring: true, card: { ...card, pan: '4000 0000 0000 0002' }, customer: { email: 'ada@example.com' } });
    expect(declined.body.payment.status).toBe('declined');
    expect(declined.body).not.toHaveProperty('recurringToken');
    expect(await detailOf(declined.body.token)).not.toHaveProperty('walletToken');
  });

  it('charges a recurringToken at once without card data, through card_token_from', async () => {
    const first = await firstPayment();
    const [series] = await rows<{ recurring_gateway_token: string }>(sql`select recurring_gateway_token from payments where token = ${first.token}`);
    const charged = await payment({ amount: 1700, recurringToken: first.recurringToken, orderNumber: 'month-2' });
    expect(charged.status, JSON.stringify(charged.body)).toBe(200);
    expect(charged.body.payment).toEqual({ amount: '1700', gateway_amount: 1700, currency: 'EUR', status: 'approved', two_stage_mode: false });
    expect(charged.body).not.toHaveProperty('recurringToken');
    const detail = await detailOf(charged.body.token);
    expect(detail.card).toMatchObject({ mask: '424242******4242', holder: 'Ada Lovelace' });
    const payLog = detail.interaction_logs.find((log: any) => log.kind === 'pay' && log.entry?.request?.body?.params);
    const params = payLog.entry.request.body.params;
    expect(params.card).toEqual({ card_token_from: series?.recurring_gateway_token });
    expect(params.recurring).toBe(true);
    expect(params).not.toHaveProperty('pan');
    expect(params).not.toHaveProperty('cvv');
    expect(params).not.toHaveProperty('expires');
    expect(JSON.stringify(detail.interaction_logs)).not.toContain('4242424242424242');
    expect(new Date(String(await lastChargeOf(first.token))).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses a charge sooner than recurring_data.days after the last one (from the first approval), then allows it', async () => {
    const first = await firstPayment({ recurring_data: { days: 30, exp_date: '20991231' } });
    const tooSoon = await payment({ recurringToken: first.recurringToken });
    expect(tooSoon.status).toBe(422);
    expect(errorCodeOf(tooSoon)).toBe('recurring_too_soon');
    expect(tooSoon.body.errors[0].message).toMatch(/one charge every 30 days; the next one from /);
    await setLastCharge(first.token, new Date(Date.now() - 31 * DAY_MS));
    const due = await payment({ recurringToken: first.recurringToken });
    expect(due.body.payment.status).toBe('approved');
    const again = await payment({ recurringToken: first.recurringToken });
    expect(errorCodeOf(again)).toBe('recurring_too_soon');
  });

  it('refuses every charge once recurring_data.exp_date has passed', async () => {
    const first = await firstPayment({ recurring_data: { days: 1, exp_date: '20991231' } });
    await rows(sql`update payments set recurring_data = '{"days": 1, "expDate": "20200101"}'::jsonb where token = ${first.token}`);
    await setLastCharge(first.token, new Date(Date.now() - 400 * DAY_MS));
    const expired = await payment({ recurringToken: first.recurringToken });
    expect(expired.status).toBe(422);
    expect(errorCodeOf(expired)).toBe('recurring_expired');
    const wallet = await payment({ walletToken: first.walletToken });
    expect(errorCodeOf(wallet)).toBe('recurring_expired');
  });

  it('refuses tokens of another merchant, of another environment, and unknown ones', async () => {
    const first = await firstPayment();
    const foreign = await payment({ recurringToken: first.recurringToken }, otherMerchant.sandboxKey);
    expect(foreign.status).toBe(422);
    expect(errorCodeOf(foreign)).toBe('recurring_token_unknown');
    const foreignWallet = await payment({ walletToken: first.walletToken }, otherMerchant.sandboxKey);
    expect(errorCodeOf(foreignWallet)).toBe('wallet_token_unknown');
    const production = await payment({ recurringToken: first.recurringToken }, merchant.productionKey);
    expect(errorCodeOf(production)).toBe('recurring_token_unknown');
    expect(errorCodeOf(await payment({ recurringToken: 'f'.repeat(32) }))).toBe('recurring_token_unknown');
    expect(errorCodeOf(await payment({ recurringToken: 'not a token' }))).toBe('recurring_token_unknown');
    expect(errorCodeOf(await payment({ recurringToken: first.walletToken }))).toBe('recurring_token_unknown');
    const [count] = await rows<{ n: number | string }>(sql`select count(*) as n from payments where merchant_id = ${otherMerchant.id}`);
    expect(Number(count?.n)).toBe(0);
  });

  it('lets only one of two concurrent charges through within one window', async () => {
    const first = await firstPayment({ recurring_data: { days: 30, exp_date: '20991231' } });
    await setLastCharge(first.token, new Date(Date.now() - 31 * DAY_MS));
    const [one, two] = await Promise.all([payment({ recurringToken: first.recurringToken }), payment({ recurringToken: first.recurringToken })]);
    const outcomes = [one, two].map((response) => (response.status === 200 ? response.body.payment.status : errorCodeOf(response))).sort();
    expect(outcomes).toEqual(['approved', 'recurring_too_soon']);
  });

  it('charges a series without recurring_data as often as asked, concurrently too', async () => {
    const first = await firstPayment();
    const charges = await Promise.all([1, 2, 3].map(() => payment({ recurringToken: first.recurringToken })));
    expect(charges.map((response) => response.body.payment?.status)).toEqual(['approved', 'approved', 'approved']);
  });

  it('gives the window back when the provider declines the charge, so the merchant may retry', async () => {
    const first = await firstPayment({ recurring_data: { days: 30, exp_date: '20991231' } });
    const before = new Date(Date.now() - 31 * DAY_MS);
    await setLastCharge(first.token, before);
    // The provider forgot the card on file: its token names nothing any more.
    await rows(sql`update sandbox_transactions set recurring_gateway_token = recurring_gateway_token || '_gone' where payment_token = ${first.token}`);
    const declined = await payment({ recurringToken: first.recurringToken });
    expect(declined.body.payment.status).toBe('declined');
    expect((await detailOf(declined.body.token)).decline_reason).toMatch(/card_token_from/);
    expect(new Date(String(await lastChargeOf(first.token))).getTime()).toBe(before.getTime());
    await rows(
      sql`update sandbox_transactions set recurring_gateway_token = replace(recurring_gateway_token, '_gone', '') where payment_token = ${first.token}`,
    );
    const retried = await payment({ recurringToken: first.recurringToken });
    expect(retried.body.payment.status).toBe('approved');
  });

  it.each([
    ['a card', { card: { pan: '4242 4242 4242 4242', expires: '12/2031', holder: 'Ada Lovelace', cvv: '321' }, customer: { email: 'a@example.com' } }, 'card'],
    ['recurring: true', { recurring: true }, 'recurring'],
    ['recurring_data', { recurring_data: { days: 30, exp_date: '20991231' } }, 'recurring_data'],
    ['a walletToken too', { walletToken: 'b'.repeat(32) }, 'walletToken'],
  ])('refuses a recurringToken payment with %s (422 invalid_field)', async (_name, extra, field) => {
    const refused = await payment({ recurringToken: 'a'.repeat(32), ...extra });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([expect.objectContaining({ code: 'invalid_field', field })]);
  });

  it('refuses a recurring first payment whose exp_date has passed, and recurring_data without recurring', async () => {
    const card = { pan: '4242 4242 4242 4242', expires: '12/2031', holder: 'Ada Lovelace', cvv: '321' };
    const passed = await payment({ recurring: true, recurring_data: { days: 1, exp_date: '20200101' }, card, customer: { email: 'a@example.com' } });
    expect(passed.status).toBe(422);
    expect(passed.body.errors).toEqual([expect.objectContaining({ field: 'recurring_data.exp_date' })]);
    const alone = await payment({ recurring_data: { days: 1, exp_date: '20991231' } });
    expect(alone.body.errors).toEqual([expect.objectContaining({ field: 'recurring_data' })]);
  });

  it('posts every approved charge of a series to the ledger', async () => {
    const fresh = await server.createMerchant('Ledger shop');
    const first = await payment(
      {
        recurring: true,
        card: { pan: '4242 4242 4242 4242', expires: '12/2031', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com' },
      },
      fresh.sandboxKey,
    );
    const charged = await payment({ amount: 2500, recurringToken: first.body.recurringToken }, fresh.sandboxKey);
    expect(charged.body.payment.status).toBe('approved');
    expect(await merchantAccounts(server.running.app.payrail.database.db, fresh.id, 'sandbox', 'EUR')).toMatchObject({ available: 4000, customers: -4000 });
    const [captured] = await rows<{ n: number | string }>(
      sql`select count(*) as n from ledger_transactions t join payments p on p.id = t.payment_id where p.token = ${charged.body.token} and t.kind = 'payment_captured'`,
    );
    expect(Number(captured?.n)).toBe(1);
  });
});
