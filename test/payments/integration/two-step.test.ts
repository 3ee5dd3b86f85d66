import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const HOUR_MS = 3_600_000;

// Two-step payments (spec 2.1 needConfirmation) through the real sandbox adapter: the whole service on HTTPS, the
// in-process sandbox and the workers, on either engine.
describe.each(engines)('two-step sandbox payments on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;
  let merchant: { id: number; sandboxKey: string; productionKey: string };

  beforeAll(async () => {
    server = await startServerHarness(engine);
    receiver = await startReceiver();
    merchant = await server.createMerchant('Two-step shop');
    // 2.5 % + 0.30 on each capture
    const terms = await server.call('PUT', `/api/admin/v1/merchants/${merchant.id}/commissions`, {
      key: server.adminKey,
      body: { pay: { percent: 2.5, fixed: 30 } },
    });
    expect(terms.status).toBe(200);
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const database = () => server.running.app.payrail.database;
  const authorize = async (amount: number, currency: string, extra: Record<string, unknown> = {}) => {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: {
        product: 'Reserved armchair',
        amount,
        currency,
        needConfirmation: true,
        callbackUrl: `${receiver.url}/payrail`,
        card: { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
        ...extra,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body as { token: string; payment: { status: string } };
  };
  const paymentOf = async (token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.sandboxKey })).body.payment;
  const post = (token: string, action: 'confirm' | 'decline' | 'cancel', body?: unknown, headers?: Record<string, string>) =>
    server.call('POST', `/api/v1/payments/${token}/${action}`, { key: merchant.sandboxKey, body, headers });
  const wallet = async (currency: string) => (await server.call('GET', `/api/v1/balance?currency=${currency}`, { key: merchant.sandboxKey })).body.wallet;
  const postingsOf = async (token: string) =>
    queryRows<{ kind: string }>(
      database(),
      sql`select t.kind from ledger_transactions t join payments p on p.id = t.payment_id where p.token = ${token} order by t.id`,
    );
  const logKinds = async (token: string) => ((await paymentOf(token)).interaction_logs as { kind: string }[]).map((log) => log.kind);
  const notificationsOf = (token: string) =>
    receiver.received.map((request) => JSON.parse(request.body) as { token: string; status: string }).filter((body) => body.token === token);
  const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });
  const ledgerViolations = async () => (await server.call('GET', '/api/admin/v1/ledger/check', { key: server.adminKey })).body.violations;

  it('authorizes an approved two-step card, holds it for 168 hours, tells the merchant and leaves the ledger alone', async () => {
    const before = Date.now();
    const created = await authorize(5000, 'GBP');
    expect(created.payment.status).toBe('authorized');
    const payment = await paymentOf(created.token);
    expect(payment).toMatchObject({ status: 'authorized', two_stage_mode: true, captured_amount: null, decline_reason: null });
    const heldUntil = Date.parse(payment.authorized_until);
    expect(heldUntil).toBeGreaterThanOrEqual(before + 168 * HOUR_MS - 1000);
    expect(heldUntil).toBeLessThanOrEqual(Date.now() + 168 * HOUR_MS + 1000);
    expect(await postingsOf(created.token)).toEqual([]);
    expect(await wallet('GBP')).toEqual({ available: 0, hold: 0, currency: 'GBP' });
    await eventually(() => notificationsOf(created.token).map((body) => body.status)).toEqual(['authorized']);
    const sent = (await paymentOf(created.token)).interaction_logs.find((log: { kind: string }) => log.kind === 'pay');
    expect(sent.entry.request.body.params.need_confirmation).toBe(true);
  });

  it('captures a smaller amount on confirm: approved, captured_amount set, available = captured − commission', async () => {
    const { token } = await authorize(10_000, 'USD');
    await eventually(() => notificationsOf(token).length).toBe(1);
    const confirmed = await post(token, 'confirm', { amount: 8000 });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toMatchObject({
      success: true,
      errors: [],
      status: 200,
      payment: { token, status: 'approved', captured_amount: 8000, amount: 10_000 },
    });
    // 2.5 % of 80.00 + 0.30 = 2.30
    expect(confirmed.body.payment.commission_data).toEqual({ commission_value: 2.5, commission_fee: 30, commission_amount: 230 });
    expect(confirmed.body.payment.authorized_until).toBeNull();
    expect(await wallet('USD')).toEqual({ available: 7770, hold: 0, currency: 'USD' });
    expect(await postingsOf(token)).toEqual([{ kind: 'payment_captured' }]);
    const [sandboxRow] = await queryRows<{ amount: string; confirmation: string }>(
      database(),
      sql`select amount_minor::text as amount, confirmation from sandbox_transactions where payment_token = ${token}`,
    );
    expect(sandboxRow).toEqual({ amount: '8000', confirmation: 'confirmed' });
    await eventually(() => notificationsOf(token).map((body) => body.status)).toEqual(['authorized', 'approved']);
    expect(await ledgerViolations()).toEqual([]);
  });

  it('confirms the whole amount without a body, and answers a repeat with the payment again without calling the adapter', async () => {
    const { token } = await authorize(2500, 'EUR');
    const first = await post(token, 'confirm');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.payment).toMatchObject({ status: 'approved', captured_amount: 2500 });
    const callsAfterFirst = (await logKinds(token)).filter((kind) => kind === 'confirm_request').length;
    expect(callsAfterFirst).toBeGreaterThan(0);
    const second = await post(token, 'confirm', { amount: 2500 });
    expect(second.status).toBe(200);
    expect(second.body.payment).toMatchObject({ status: 'approved', captured_amount: 2500 });
    expect((await logKinds(token)).filter((kind) => kind === 'confirm_request').length).toBe(callsAfterFirst);
    expect(await postingsOf(token)).toEqual([{ kind: 'payment_captured' }]);
    const other = await post(token, 'confirm', { amount: 1000 });
    expect(other.status).toBe(409);
    expect(other.body.errors[0]).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('approved') });
  });

  it('voids on decline: declined by the merchant, nothing posted, the merchant told; a repeat answers it again', async () => {
    const before = await wallet('JPY');
    const { token } = await authorize(700, 'JPY');
    const declined = await post(token, 'decline');
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(declined.body.payment).toMatchObject({ status: 'declined', decline_reason: 'declined by the merchant', captured_amount: null });
    expect(await postingsOf(token)).toEqual([]);
    expect(await wallet('JPY')).toEqual(before);
    const [sandboxRow] = await queryRows<{ status: string; confirmation: string }>(
      database(),
      sql`select status, confirmation from sandbox_transactions where payment_token = ${token}`,
    );
    expect(sandboxRow).toEqual({ status: 'declined', confirmation: 'voided' });
    const calls = (await logKinds(token)).filter((kind) => kind === 'decline_request').length;
    expect((await post(token, 'decline', {})).status).toBe(200);
    expect((await logKinds(token)).filter((kind) => kind === 'decline_request').length).toBe(calls);
    const confirm = await post(token, 'confirm');
    expect(confirm.status).toBe(409);
    expect(confirm.body.errors[0]).toEqual({ code: 'invalid_state', message: 'payment is declined; only an authorized payment can be confirmed' });
    await eventually(() =>
      notificationsOf(token)
        .map((body) => body.status)
        .at(-1),
    ).toBe('declined');
  });

  it('refuses to confirm more than was authorized, and leaves the payment authorized', async () => {
    const { token } = await authorize(1000, 'EUR');
    const tooMuch = await post(token, 'confirm', { amount: 1001 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors).toEqual([{ code: 'invalid_amount', field: 'amount', message: 'must not exceed the authorized amount 1000' }]);
    const misspelt = await post(token, 'confirm', { amout: 10 });
    expect(misspelt.status).toBe(422);
    expect(misspelt.body.errors[0].code).toBe('unknown_field');
    const fractional = await post(token, 'confirm', { amount: 10.5 });
    expect(fractional.status).toBe(422);
    expect(fractional.body.errors[0].code).toBe('invalid_field');
    expect((await paymentOf(token)).status).toBe('authorized');
  });

  it.each([
    ['a one-step approved payment', { needConfirmation: false }, 'payment is approved; only a two-step payment (needConfirmation) can be confirmed'],
    [
      'a two-step payment still in 3-D Secure',
      { card: { pan: '4000 0000 0000 3220', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' } },
      'payment is pending; only an authorized payment can be confirmed',
    ],
  ])('answers 409 invalid_state with the status to a confirm of %s', async (_name, extra, message) => {
    const { token } = await authorize(1500, 'EUR', extra);
    for (const action of ['confirm', 'decline'] as const) {
      const refused = await post(token, action);
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].code).toBe('invalid_state');
    }
    expect((await post(token, 'confirm')).body.errors[0].message).toBe(message);
  });

  it('replays a confirm with the same Idempotency-Key, and refuses the key with another body', async () => {
    const { token } = await authorize(3000, 'EUR');
    const headers = { 'idempotency-key': `confirm-${token}` };
    const first = await post(token, 'confirm', { amount: 1200 }, headers);
    expect(first.status).toBe(200);
    const replayed = await post(token, 'confirm', { amount: 1200 }, headers);
    expect(replayed.status).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(first.body);
    const reused = await post(token, 'confirm', { amount: 1300 }, headers);
    expect(reused.status).toBe(422);
    expect(reused.body.errors[0].code).toBe('idempotency_key_reused');
  });

  it("never lets another merchant or the other environment's key confirm, decline or cancel a payment", async () => {
    const { token } = await authorize(900, 'EUR');
    const stranger = await server.createMerchant('Stranger');
    for (const key of [stranger.sandboxKey, merchant.productionKey]) {
      for (const action of ['confirm', 'decline', 'cancel']) {
        const refused = await server.call('POST', `/api/v1/payments/${token}/${action}`, { key });
        expect(refused.status).toBe(404);
      }
    }
    expect((await server.call('POST', `/api/v1/payments/${token}/confirm`, {})).status).toBe(401);
    expect((await paymentOf(token)).status).toBe('authorized');
  });

  it('voids an authorization nobody confirmed once its hold is over: declined with the reason, the merchant told', async () => {
    const { token } = await authorize(4200, 'EUR');
    await eventually(() => notificationsOf(token).length).toBe(1);
    await database().db.execute(sql`update payments set authorized_until = now() - interval '1 minute' where token = ${token}`);
    await eventually(async () => (await paymentOf(token)).status).toBe('declined');
    const payment = await paymentOf(token);
    expect(payment.decline_reason).toBe('authorization expired unconfirmed after 168 hours');
    expect(payment.interaction_logs.some((log: { kind: string }) => log.kind === 'decline_request')).toBe(true);
    expect(await postingsOf(token)).toEqual([]);
    await eventually(() => notificationsOf(token).map((body) => body.status)).toEqual(['authorized', 'declined']);
    const [sandboxRow] = await queryRows<{ confirmation: string }>(
      database(),
      sql`select confirmation from sandbox_transactions where payment_token = ${token}`,
    );
    expect(sandboxRow?.confirmation).toBe('voided');
    const late = await post(token, 'confirm');
    expect(late.status).toBe(409);
  });

  it('authorizes a two-step 3-D Secure payment once the customer authenticates, and confirms it', async () => {
    const { token } = await authorize(1800, 'EUR', { card: { pan: '4000 0000 0000 3220', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' } });
    const payment = await paymentOf(token);
    const redirect = payment.redirect_request;
    const completion = await fetchForm(server, `${redirect.url}/complete`, { outcome: 'success', ...redirect.params });
    expect(completion).toBe(303);
    await eventually(async () => (await paymentOf(token)).status).toBe('authorized');
    expect((await paymentOf(token)).authorized_until).not.toBeNull();
    const confirmed = await post(token, 'confirm');
    expect(confirmed.body.payment).toMatchObject({ status: 'approved', captured_amount: 1800 });
  });
});

async function fetchForm(server: ServerHarness, url: string, fields: Record<string, string>): Promise<number> {
  const { request } = await import('undici');
  const response = await request(url, {
    method: 'POST',
    dispatcher: server.dispatcher,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  await response.body.dump();
  return response.statusCode;
}
