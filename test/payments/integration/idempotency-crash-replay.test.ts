import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayment } from '../../../src/payments/flows/create-payment.ts';
import { claimKey } from '../../../src/payments/flows/idempotency-keys.ts';
import { createPaymentValidator } from '../../../src/payments/routes/merchant-api/payments/validate-create.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway, cardPayment } from '../../support/production-gateway.ts';
import { queryRows } from '../../support/sql.ts';
import { disputeForm, postDispute } from './disputes-fixtures.ts';

const engines = await testEngines();

interface KeyRow {
  state: string;
  resource_kind: string | null;
  resource_token: string | null;
  response_body: string | null;
}

// Issue 18 item 0: a request that stored its row and died before it stored its answer is never run again by a retry
// with the same Idempotency-Key: the key was committed in the row's own transaction, naming the row, so the retry
// replays the answer built from it. The death is a database trigger that fails the statement storing the answer
// (the process's last step), after which nothing renews the claim's lease; the lease's lapse is then brought forward.
describe.each(engines)('a retry after the first request died before answering, on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let adapter: FakeAdapter;
  let documentsDir: string;

  beforeAll(async () => {
    documentsDir = await mkdtemp(join(tmpdir(), 'payrail-crash-replay-'));
    harness = await startHarness(engine, { PAYRAIL_DISPUTE_DOCUMENTS_DIR: documentsDir });
    merchant = await harness.createMerchant('Crash merchant');
    adapter = await startFakeAdapter();
    await addProductionGateway(harness, merchant.id, adapter);
    adapter.respond('pay', (request) => reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`, { recurring_gateway_token: 'rc_1' })));
    adapter.respond('refund', reply.json(adapterAnswer.approved('gw_refund')));
    adapter.respond('payout', reply.json(adapterAnswer.approved('gw_payout')));
    adapter.respond('confirm_request', reply.json(adapterAnswer.approved('gw_confirm')));
    for (const statement of [
      sql`create table crash_armed (idempotency_key text primary key)`,
      sql.raw(`create function crash_before_answer() returns trigger language plpgsql as $$
        begin
          if new.state = 'completed' and exists (select 1 from crash_armed where idempotency_key = new.idempotency_key) then
            raise exception 'the process died before it stored its answer';
          end if;
          return new;
        end $$`),
      sql`create trigger crash_before_answer before update on idempotency_keys for each row execute function crash_before_answer()`,
    ]) {
      await harness.database.db.execute(statement);
    }
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
    await rm(documentsDir, { recursive: true, force: true });
  });

  const rows = <Row>(query: ReturnType<typeof sql>) => queryRows<Row>(harness.database, query);
  const keyRow = async (idempotencyKey: string) =>
    (
      await rows<KeyRow>(
        sql`select state, resource_kind, resource_token, response_body from idempotency_keys
            where merchant_id = ${merchant.id} and idempotency_key = ${idempotencyKey}`,
      )
    )[0];
  const adapterCalls = (method: string) => adapter.requests.filter((request) => request.method === method).length;
  const post = (url: string, payload: unknown, idempotencyKey: string) =>
    harness.merchantRequest(merchant.productionKey, { method: 'POST', url, payload: payload as object, headers: { 'idempotency-key': idempotencyKey } });

  // The first request dies after its transaction committed; retries with the same key wait for its lease, then
  // replay the answer built from the row it named, which becomes the key's stored answer.
  async function crashThenRetry(idempotencyKey: string, kind: string, send: () => Promise<LightMyRequestResponse>) {
    await harness.database.db.execute(sql`insert into crash_armed values (${idempotencyKey})`);
    await send();
    const dead = await keyRow(idempotencyKey);
    expect(dead).toMatchObject({ state: 'committed', resource_kind: kind, response_body: null });
    expect(dead?.resource_token).toMatch(/^[0-9a-f]{32}$/);
    const early = await send(); // the lease of the dead process has not lapsed yet
    expect(early.statusCode).toBe(409);
    expect(early.json().errors[0].code).toBe('idempotency_key_in_use');

    await harness.database.db.execute(sql`delete from crash_armed where idempotency_key = ${idempotencyKey}`);
    await harness.database.db.execute(
      sql`update idempotency_keys set lease_until = now() - interval '1 second' where merchant_id = ${merchant.id} and idempotency_key = ${idempotencyKey}`,
    );
    const retried = await send();
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(await keyRow(idempotencyKey)).toMatchObject({ state: 'completed', response_body: retried.body });
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(retried.body);
    return { answer: retried.json(), resourceToken: dead!.resource_token! };
  }

  const approvedPayment = async (orderNumber: string, extra: Record<string, unknown> = {}) => {
    const paid = await harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { ...cardPayment(orderNumber), ...extra },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    return paid.json();
  };
  const countRows = async (query: ReturnType<typeof sql>) => (await rows<{ n: number }>(query))[0]!.n;

  it('stores no row when its claim was taken over before the transaction that stores the row committed the key', async () => {
    const db = harness.database.db;
    const scope = { merchantId: merchant.id, environment: 'production' as const, idempotencyKey: 'lost-claim' };
    const first = await claimKey(db, scope, 'digest');
    if (!first.claimed) throw new Error('lost-claim is held');
    first.claim.stop(); // its process stalled: nothing renews the lease, which lapses
    await db.execute(sql`update idempotency_keys set lease_until = now() - interval '1 second' where idempotency_key = 'lost-claim'`);
    const successor = await claimKey(db, scope, 'digest');
    expect(successor.claimed).toBe(true);
    const validated = createPaymentValidator({ currencies: harness.app.payrail.currencies })({ ...validPaymentA, orderNumber: 'lost-claim' });
    if (!validated.ok) throw new Error('invalid payment');
    const stored = createPayment(db, scope, validated.request, { defaultExpiryMinutes: 30 }, (tx, resource) => first.claim.commit(resource, tx));
    await expect(stored).rejects.toMatchObject({ code: 'idempotency_key_in_use', statusCode: 409 });
    expect(await countRows(sql`select count(*)::int as n from payments where order_number = 'lost-claim'`)).toBe(0);
    expect(await keyRow('lost-claim')).toMatchObject({ state: 'in_progress', resource_kind: null });
    if (successor.claimed) successor.claim.stop();
  });

  it('replays a Host-to-Host payment born pending: one payment, one /pay', async () => {
    const paysBefore = adapterCalls('pay');
    const { answer, resourceToken } = await crashThenRetry('crash-h2h', 'payment', () => post('/api/v1/payments', cardPayment('crash-h2h'), 'crash-h2h'));
    expect(answer).toMatchObject({ success: true, token: resourceToken, payment: { status: 'approved', amount: '1999' } });
    expect(await countRows(sql`select count(*)::int as n from payments where order_number = 'crash-h2h'`)).toBe(1);
    expect(adapterCalls('pay') - paysBefore).toBe(1);
  });

  it('replays a Host-to-Host payment of the general path (a gateway without status checks): one payment, one /pay', async () => {
    const other = await harness.createMerchant('No status checks');
    await addProductionGateway(harness, other.id, adapter, { enable_status_checker: false });
    const paysBefore = adapterCalls('pay');
    const send = () =>
      harness.merchantRequest(other.productionKey, {
        method: 'POST',
        url: '/api/v1/payments',
        payload: cardPayment('crash-general'),
        headers: { 'idempotency-key': 'crash-general' },
      });
    const dying = merchant;
    merchant = other; // keyRow and crashThenRetry read this merchant's keys
    try {
      const { answer, resourceToken } = await crashThenRetry('crash-general', 'payment', send);
      expect(answer).toMatchObject({ token: resourceToken, payment: { status: 'approved' } });
    } finally {
      merchant = dying;
    }
    expect(await countRows(sql`select count(*)::int as n from payments where order_number = 'crash-general'`)).toBe(1);
    expect(adapterCalls('pay') - paysBefore).toBe(1);
  });

  it('replays a hosted payment: one payment, its payment page again', async () => {
    const body = { ...validPaymentA, currency: 'EUR', orderNumber: 'crash-hosted' };
    const { answer, resourceToken } = await crashThenRetry('crash-hosted', 'payment', () => post('/api/v1/payments', body, 'crash-hosted'));
    expect(answer).toMatchObject({ token: resourceToken, processingUrl: `https://pay.test/checkout/${resourceToken}?locale=en`, payment: { status: 'init' } });
    expect(await countRows(sql`select count(*)::int as n from payments where order_number = 'crash-hosted'`)).toBe(1);
  });

  it('replays a recurring charge: one payment, one /pay with the card on file', async () => {
    const first = await approvedPayment('crash-series', { recurring: true });
    const paysBefore = adapterCalls('pay');
    const body = { product: 'Monthly box', amount: 700, currency: 'EUR', callbackUrl: 'https://merchant.example/callback', orderNumber: 'crash-recurring' };
    const charge = { ...body, recurringToken: first.recurringToken };
    const { answer, resourceToken } = await crashThenRetry('crash-recurring', 'payment', () => post('/api/v1/payments', charge, 'crash-recurring'));
    expect(answer).toMatchObject({ token: resourceToken, payment: { status: 'approved', amount: '700' } });
    expect(await countRows(sql`select count(*)::int as n from payments where order_number = 'crash-recurring'`)).toBe(1);
    expect(adapterCalls('pay') - paysBefore).toBe(1);
  });

  it('replays a refund: one refund, refunded once, one /refund', async () => {
    const paid = await approvedPayment('crash-refunded');
    await approvedPayment('crash-refund-funds'); // the refund's money
    const refundsBefore = adapterCalls('refund');
    const { answer, resourceToken } = await crashThenRetry('crash-refund', 'refund', () =>
      post('/api/v1/refunds', { token: paid.token, amount: 500 }, 'crash-refund'),
    );
    expect(answer).toMatchObject({ token: paid.token, refund: { token: resourceToken, amount: 500 } });
    const [payment] = await rows<{ refunded_minor: number; refunds: number }>(
      sql`select p.refunded_minor::int as refunded_minor, (select count(*)::int from refunds r where r.payment_id = p.id) as refunds
          from payments p where p.token = ${paid.token}`,
    );
    expect(payment).toEqual({ refunded_minor: 500, refunds: 1 });
    expect(adapterCalls('refund') - refundsBefore).toBe(1);
  });

  it('replays a payout: one payout, reserved once, one /payout', async () => {
    await approvedPayment('crash-payout-funds');
    const payoutsBefore = adapterCalls('payout');
    const body = {
      amount: 300,
      currency: 'EUR',
      orderNumber: 'crash-payout',
      callbackUrl: 'https://merchant.example/callback',
      customer: { email: 'payee@example.com', phone: '+79990000000', first_name: 'Ada' },
      bank_account: { requisite_type: 'account', bank_name: 'Example Bank', account_number: '40817810000000000001' },
    };
    const { answer, resourceToken } = await crashThenRetry('crash-payout', 'payout', () => post('/api/v1/payouts', body, 'crash-payout'));
    expect(answer).toMatchObject({ token: resourceToken, payment: { amount: 300 } });
    expect(await countRows(sql`select count(*)::int as n from payments where order_number = 'crash-payout'`)).toBe(1);
    expect(adapterCalls('payout') - payoutsBefore).toBe(1);
  });

  it('replays a dispute: one dispute, held once', async () => {
    const paid = await approvedPayment('crash-disputed');
    const form = disputeForm(paid.token, 400);
    const send = () => postDispute(harness, merchant.productionKey, form, { 'idempotency-key': 'crash-dispute' });
    const { answer, resourceToken } = await crashThenRetry('crash-dispute', 'dispute', send);
    expect(answer).toMatchObject({ success: true, dispute: { token: resourceToken } });
    expect(await countRows(sql`select count(*)::int as n from disputes d join payments p on p.id = d.payment_id where p.token = ${paid.token}`)).toBe(1);
  });

  it('replays a capture (confirm): the payment captured once, one confirm_request', async () => {
    const authorized = await approvedPayment('crash-confirm', { needConfirmation: true });
    expect(authorized.payment.status).toBe('authorized');
    const confirmsBefore = adapterCalls('confirm_request');
    const { answer, resourceToken } = await crashThenRetry('crash-confirm', 'payment', () =>
      post(`/api/v1/payments/${authorized.token}/confirm`, { amount: 1500 }, 'crash-confirm'),
    );
    expect(resourceToken).toBe(authorized.token);
    expect(answer.payment).toMatchObject({ token: authorized.token, status: 'approved', captured_amount: 1500 });
    expect(adapterCalls('confirm_request') - confirmsBefore).toBe(1);
  });
});
