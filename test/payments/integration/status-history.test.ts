import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentTimeline } from '../../../src/payments/flows/payment-timeline.ts';
import { startWorkers, type RunningWorkers } from '../../../src/workers/runner.ts';
import { gatewaySettings, signedCallback } from '../../support/callback-merchant.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { auditRowsOf } from '../../support/audit.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const WORKER_POLL_MS = 60_000; // the test drives passes with tick()
const AMOUNT = 1999;
const CARD = { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' }; // production declines sandbox test cards
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };

interface Shop extends TestMerchant {
  signKey: string;
}

type Move = [from: string | null, to: string, cause: string];

// Every move of a payment's status is recorded with its cause by the write that makes it (payment_status_changes):
// the merchant's request, the adapter's answer, a callback, a status check, the expiry, an operator.
describe.each(engines)('the recorded status history of payments, on %s', (engine) => {
  let harness: Harness;
  let adapter: FakeAdapter;
  let workers: RunningWorkers;
  let plain: Shop; // no status checks: a Host-to-Host payment is created init, then sent
  let checked: Shop; // with status checks: a Host-to-Host payment is born pending
  const approvedOnCheck = new Set<string>(); // the tokens whose /status answers approved (others: pending)

  const addShop = async (statusChecker: boolean): Promise<Shop> => {
    const merchant = await harness.createMerchant(statusChecker ? 'Checked shop' : 'Plain shop');
    const settings = gatewaySettings(adapter, {}, statusChecker);
    const added = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchant.id}/gateways`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
      payload: { alias: 'acquirer', environment: 'production', settings },
    });
    expect(added.statusCode, added.body).toBe(200);
    return { ...merchant, signKey: settings.sign_key };
  };

  beforeAll(async () => {
    harness = await startHarness(engine);
    adapter = await startFakeAdapter();
    // The /pay answer by order number: approve-…, decline-…, anything else pending.
    adapter.respond('pay', (request) => {
      const order = String(request.body.payment.order_number ?? '');
      const gatewayToken = `gw_${request.body.payment.token}`;
      if (order.startsWith('approve-')) return reply.json(adapterAnswer.approved(gatewayToken));
      if (order.startsWith('decline-')) return reply.json(adapterAnswer.declined(gatewayToken, { details: 'do not honour' }));
      return reply.json(adapterAnswer.pending(gatewayToken));
    });
    adapter.respond('status', (request) => {
      const token = String(request.body.payment.token);
      return reply.json(approvedOnCheck.has(token) ? adapterAnswer.approved(`gw_${token}`) : adapterAnswer.pending(`gw_${token}`));
    });
    for (const method of ['confirm_request', 'refund', 'payout']) adapter.respond(method, reply.json(adapterAnswer.approved(`gw-${method}`)));
    plain = await addShop(false);
    checked = await addShop(true);
    workers = startWorkers({ context: harness.app.payrail, adapterClient: harness.app.payrail.adapterClient }, harness.app.log, WORKER_POLL_MS);
  });
  afterAll(async () => {
    await workers?.stop();
    await adapter?.close();
    await harness?.close();
  });

  const api = async (shop: Shop, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
    const answered = await harness.merchantRequest(shop.productionKey, { method, url, ...(payload ? { payload } : {}) });
    expect(answered.statusCode, answered.body).toBe(200);
    return answered.json();
  };
  const create = async (shop: Shop, orderNumber: string, extra: Record<string, unknown> = {}) => {
    const body = { product: 'Order #77', amount: AMOUNT, currency: 'EUR', callbackUrl: 'https://merchant.example/callback', orderNumber, ...extra };
    return (await api(shop, 'POST', '/api/v1/payments', body)).token as string;
  };
  const cardPayment = (shop: Shop, orderNumber: string, extra: Record<string, unknown> = {}) =>
    create(shop, orderNumber, { card: CARD, customer: { email: 'ada@example.com', ip: '203.0.113.7' }, ...extra });
  const statusOf = async (shop: Shop, token: string) => (await api(shop, 'GET', `/api/v1/payments/${token}`)).payment.status as string;
  const movesOf = async (token: string): Promise<Move[]> => {
    const rows = await queryRows<{ from_status: string | null; to_status: string; cause: string }>(
      harness.database,
      sql`select c.from_status, c.to_status, c.cause from payment_status_changes c join payments p on p.id = c.payment_id
        where p.token = ${token} order by c.id`,
    );
    return rows.map((row) => [row.from_status, row.to_status, row.cause]);
  };
  const callback = async (shop: Shop, token: string, claims: Record<string, unknown>) => {
    const jwt = await signedCallback(shop.signKey, shop.productionKey, { gateway_token: `gw_${token}`, ...claims });
    const answered = await harness.app.inject({
      method: 'POST',
      url: `/callbacks/v2/gateway_callbacks/${token}`,
      headers: { authorization: `Bearer ${jwt}` },
      payload: {},
    });
    expect(answered.statusCode, answered.body).toBe(200);
  };
  const admin = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
    const answered = await harness.app.inject({ method, url: `/api/admin/v1${url}`, headers: { authorization: `Bearer ${harness.adminKey}` }, payload });
    expect(answered.statusCode, answered.body).toBe(200);
    return answered.json();
  };

  it('records a Host-to-Host payment born pending with its cause api, then approved by the adapter’s answer', async () => {
    const token = await cardPayment(checked, 'approve-h2h');
    expect(await statusOf(checked, token)).toBe('approved');
    expect(await movesOf(token)).toEqual([
      [null, 'pending', 'api'],
      ['pending', 'approved', 'adapter'],
    ]);
  });

  it('records a payment the provider’s callback finalized as callback', async () => {
    const token = await cardPayment(plain, 'wait-callback');
    expect(await statusOf(plain, token)).toBe('pending');
    await callback(plain, token, { status: 'approved' });
    expect(await movesOf(token)).toEqual([
      [null, 'init', 'api'],
      ['init', 'pending', 'api'],
      ['pending', 'approved', 'callback'],
    ]);
  });

  it('records a payment the status checker finalized as status_check', async () => {
    const token = await cardPayment(checked, 'wait-check');
    expect(await statusOf(checked, token)).toBe('pending');
    approvedOnCheck.add(token);
    await harness.database.db.execute(
      sql`update outbox set due_at = now() - interval '1 second' from payments p
        where outbox.payment_id = p.id and p.token = ${token} and outbox.topic = 'status_check' and outbox.done_at is null`,
    );
    await workers.tick();
    expect(await statusOf(checked, token)).toBe('approved');
    expect(await movesOf(token)).toEqual([
      [null, 'pending', 'api'],
      ['pending', 'approved', 'status_check'],
    ]);
  });

  it('records a payment whose lifetime ended as expiry', async () => {
    const token = await create(plain, 'hosted-expiry');
    await harness.database.db.execute(sql`update payments set expires_at = now() - interval '1 second' where token = ${token}`);
    await workers.tick();
    expect(await statusOf(plain, token)).toBe('expired');
    expect(await movesOf(token)).toEqual([
      [null, 'init', 'api'],
      ['init', 'expired', 'expiry'],
    ]);
  });

  it('records an operator’s accept of a late contradicting callback as operator', async () => {
    const token = await cardPayment(plain, 'decline-conflict');
    expect(await statusOf(plain, token)).toBe('declined');
    await callback(plain, token, { status: 'approved' }); // kept declined: a conflict
    const listed = await admin('GET', '/conflicts?state=unresolved&perPage=100');
    const conflict = (listed.conflicts as { id: number; payment_token: string }[]).find((each) => each.payment_token === token);
    expect(conflict).toBeDefined();
    await admin('POST', `/conflicts/${conflict!.id}/resolve`, { action: 'accept', operator: 'ops@payrail.example' });
    expect(await statusOf(plain, token)).toBe('approved');
    expect(await movesOf(token)).toEqual([
      [null, 'init', 'api'],
      ['init', 'pending', 'api'],
      ['pending', 'declined', 'adapter'],
      ['declined', 'approved', 'operator'],
    ]);
  });

  it('records the merchant’s cancel as api', async () => {
    const token = await create(plain, 'hosted-cancel');
    await api(plain, 'POST', `/api/v1/payments/${token}/cancel`);
    expect(await movesOf(token)).toEqual([
      [null, 'init', 'api'],
      ['init', 'cancelled', 'api'],
    ]);
  });

  it('records each move of payments driven through several, once: a refund, a capture, the customer’s card, a payout', async () => {
    const refunded = await cardPayment(plain, 'approve-refund');
    await api(plain, 'POST', '/api/v1/refunds', { token: refunded });
    expect(await statusOf(plain, refunded)).toBe('refunded');

    const captured = await cardPayment(plain, 'approve-two-step', { needConfirmation: true });
    expect(await statusOf(plain, captured)).toBe('authorized');
    await api(plain, 'POST', `/api/v1/payments/${captured}/confirm`, {});
    expect(await statusOf(plain, captured)).toBe('approved');

    const hosted = await create(plain, 'approve-hosted');
    const submitted = await harness.app.inject({
      method: 'POST',
      url: `/checkout/${hosted}?locale=en`,
      headers: FORM_HEADERS,
      payload: new URLSearchParams({ ...CARD }).toString(),
    });
    expect(submitted.statusCode, submitted.body).toBe(303);
    expect(await statusOf(plain, hosted)).toBe('approved');

    // funded by the captures above
    const payout = await api(plain, 'POST', '/api/v1/payouts', {
      amount: 500,
      currency: 'EUR',
      orderNumber: 'payout-1',
      callbackUrl: 'https://merchant.example/callback',
      bank_account: { requisite_type: 'card' },
      card: { pan: '4111 1111 1111 1111' },
      customer: { email: 'payee@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    });
    expect(payout.payout.status).toBe('approved');

    expect(await movesOf(refunded)).toEqual([
      [null, 'init', 'api'],
      ['init', 'pending', 'api'],
      ['pending', 'approved', 'adapter'],
      ['approved', 'refunded', 'adapter'],
    ]);
    expect(await movesOf(captured)).toEqual([
      [null, 'init', 'api'],
      ['init', 'pending', 'api'],
      ['pending', 'authorized', 'adapter'],
      ['authorized', 'approved', 'adapter'],
    ]);
    expect(await movesOf(hosted)).toEqual([
      [null, 'init', 'api'],
      ['init', 'pending', 'customer'], // the customer, on the payment page
      ['pending', 'approved', 'adapter'],
    ]);
    expect(await movesOf(payout.token)).toEqual([
      [null, 'init', 'api'],
      ['init', 'approved', 'adapter'],
    ]);
  });

  it('leaves every payment of this file one row per move: from its creation to its status now, without a gap', async () => {
    const payments = await queryRows<{ token: string; status: string }>(
      harness.database,
      sql`select token, status from payments where merchant_id in (${plain.id}, ${checked.id}) order by id`,
    );
    expect(payments.length).toBeGreaterThanOrEqual(10);
    for (const payment of payments) {
      const moves = await movesOf(payment.token);
      expect(moves[0]?.[0], payment.token).toBeNull();
      for (let index = 1; index < moves.length; index += 1) expect(moves[index]![0], payment.token).toBe(moves[index - 1]![1]);
      expect(moves.at(-1)?.[1], payment.token).toBe(payment.status);
    }
  });

  // The audit log holds the same moves, each once, with who made it: the merchant key of the request (its answer from
  // the adapter included), the worker that ran, the admin key, or the engine named by the cause. It reads them from
  // payment_status_changes itself (migration 0018), so this reads the log as its API does.
  it('shows every move in the audit log once, with its actor', async () => {
    const payments = await queryRows<{ id: number; token: string; operation_type: string; key_prefix: string }>(
      harness.database,
      sql`select p.id, p.token, p.operation_type, left(k.key_prefix, 15) as key_prefix
          from payments p join merchant_keys k on k.merchant_id = p.merchant_id and k.environment = p.environment
          where p.merchant_id in (${plain.id}, ${checked.id}) order by p.id`,
    );
    const actorOf: Record<string, (keyPrefix: string) => string[]> = {
      api: (prefix) => [`key:${prefix}`],
      adapter: (prefix) => [`key:${prefix}`, 'system:status-checker', 'system:adapter'],
      customer: () => ['system:customer'],
      callback: () => ['system:callback'],
      status_check: () => ['system:status-checker'],
      expiry: () => ['system:expiry'],
      operator: () => ['admin-key'],
    };
    expect(payments.length).toBeGreaterThanOrEqual(10);
    for (const payment of payments) {
      const kind = payment.operation_type === 'payout' ? 'payout' : 'payment';
      const audited = await auditRowsOf(harness.database, { subjectType: kind, subjectId: payment.id });
      const moves = audited.filter((row) => row.after?.['status'] !== undefined && row.after['cause'] !== undefined);
      expect(
        moves.map((row) => [row.before?.['status'] ?? null, row.after?.['status'], row.after?.['cause']]),
        payment.token,
      ).toEqual(await movesOf(payment.token));
      for (const row of moves) {
        const cause = String(row.after?.['cause']);
        expect(actorOf[cause]?.(payment.key_prefix.replace('…', '')), `${payment.token} ${cause}`).toContain(row.actor);
      }
    }
  });

  it('refuses to change or delete a recorded move, as the audit log refuses', async () => {
    const refusal = (work: Promise<unknown>) =>
      work.then(
        () => 'done',
        (error: unknown) => String((error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message),
      );
    const token = await cardPayment(plain, 'append-only-history');
    const recorded = await movesOf(token);
    const byToken = sql`payment_id = (select id from payments where token = ${token})`;
    expect(await refusal(harness.database.db.execute(sql`update payment_status_changes set cause = 'operator' where ${byToken}`))).toContain(
      'payment_status_changes is append-only: UPDATE refused',
    );
    expect(await refusal(harness.database.db.execute(sql`delete from payment_status_changes where ${byToken}`))).toContain(
      'payment_status_changes is append-only: DELETE refused',
    );
    expect(await movesOf(token)).toEqual(recorded);
  });

  it('shows the recorded history on the timeline, and infers the history of a payment from before the record', async () => {
    const token = await cardPayment(plain, 'approve-timeline');
    const scope = { merchantId: plain.id, environment: 'production' as const };
    const recorded = await paymentTimeline(harness.database.db, scope, token);
    expect(recorded.statusChanges.map(({ status, cause, inferred }) => [status, cause, inferred])).toEqual([
      ['init', 'api', false],
      ['pending', 'api', false],
      ['approved', 'adapter', false],
    ]);
    // A payment from before the record (migration 0014): the same row and adapter log under another id and token,
    // with no history rows.
    const older = `${token.slice(0, -4)}0014`;
    await harness.database.db.execute(
      sql`insert into payments overriding system value
          select (jsonb_populate_record(p, jsonb_build_object('id', (select max(id) + 1000 from payments), 'token', ${older}::text,
            'issued_recurring_token', null, 'issued_wallet_token', null))).*
          from payments p where token = ${token}`,
    );
    for (const table of ['payment_logs', 'outbox']) {
      const [written] = await queryRows<{ columns: string }>(
        harness.database,
        sql`select string_agg(quote_ident(column_name), ', ' order by ordinal_position) as columns from information_schema.columns
            where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'`,
      );
      const columns = sql.raw(written!.columns);
      await harness.database.db.execute(
        sql`insert into ${sql.identifier(table)} (${columns}) overriding system value
            select ${columns} from jsonb_populate_recordset(null::${sql.identifier(table)}, (
              select jsonb_agg(to_jsonb(r) || jsonb_build_object('id', (select max(id) from ${sql.identifier(table)}) + r.id,
                'payment_id', (select id from payments where token = ${older})))
              from ${sql.identifier(table)} r where r.payment_id = (select id from payments where token = ${token})))`,
      );
    }
    const inferred = await paymentTimeline(harness.database.db, scope, older);
    expect(inferred.statusChanges.length).toBeGreaterThan(0);
    expect(inferred.statusChanges.every((change) => change.inferred)).toBe(true);
    expect(inferred.statusChanges.at(-1)).toMatchObject({ status: 'approved', cause: 'gateway_answer' });
  });
});
