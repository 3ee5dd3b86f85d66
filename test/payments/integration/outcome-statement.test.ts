import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTransition, NO_FINAL_CHANGE } from '../../../src/payments/domain/payment-status.ts';
import { claimDueNotifications, finishNotificationWork } from '../../../src/payments/store/notification-work-repo.ts';
import { insertPendingPayment, type PaymentInsert } from '../../../src/payments/store/payments-repo.ts';
import { enqueue } from '../../../src/payments/store/outbox-repo.ts';
import { finalOutcomeSql, writeOutcome, type OutcomeWrite } from '../../../src/payments/store/outcome-statement-repo.ts';
import { findPaymentById, INIT_TO_PENDING } from '../../../src/payments/store/processing-repo.ts';
import { transitionPayment } from '../../support/bare-transition.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const PENDING_TO_APPROVED = decideTransition('pending', 'approved', NO_FINAL_CHANGE);
const PENDING_TO_DECLINED = decideTransition('pending', 'declined', NO_FINAL_CHANGE);
const STATUS_CHECK_DELAY_MS = 15_000;

// The Host-to-Host path's one-statement writes (store/payments-repo.ts insertPendingPayment, store/processing-repo.ts
// writeOutcome, store/notification-work-repo.ts): each does what its transaction used to do, or nothing at all.
describe.each(engines)('one-statement payment writes on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let orderCount = 0;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
  });
  afterAll(async () => harness?.close());

  const db = () => harness.database.db;
  const row = (): Omit<PaymentInsert, 'status'> => {
    orderCount += 1;
    return {
      token: `${'ab'.repeat(12)}${String(orderCount).padStart(8, '0')}`,
      merchantId: merchant.id,
      environment: 'production',
      operationType: 'pay',
      requestVariant: 'A',
      product: 'Order',
      amountMinor: 1999,
      currency: 'EUR',
      gatewayAmountMinor: 1999,
      gatewayCurrency: 'EUR',
      callbackUrl: 'https://merchant.example/callback',
      redirectSuccessUrl: null,
      redirectFailUrl: null,
      pendingUrl: null,
      extraReturnParam: null,
      orderNumber: `order-${orderCount}`,
      locale: 'en',
      expiresAt: new Date(Date.now() + 30 * 60_000),
      recurring: false,
      recurringToken: null,
      walletToken: null,
      needConfirmation: false,
      merchantUrl: null,
      cardMask: '411111******1111',
      cardHolder: 'Ada Lovelace',
      cardExpiryMonth: 12,
      cardExpiryYear: 2030,
      customer: {
        email: 'ada@example.com',
        firstName: null,
        lastName: null,
        address: null,
        country: null,
        city: null,
        region: null,
        postcode: null,
        phone: null,
        ip: null,
        browser: null,
      },
      recurringData: null,
      bankAccount: null,
    };
  };
  const sentPayment = async () => {
    const dueAt = new Date(Date.now() + STATUS_CHECK_DELAY_MS);
    return insertPendingPayment(db(), row(), INIT_TO_PENDING, { gatewayId: null, gatewayAlias: 'acquirer', payExchangeUntil: new Date() }, dueAt, 'api');
  };
  const outboxOf = (paymentId: number) =>
    queryRows<{ topic: string; event_id: string | null; done: boolean; due_at: string | Date }>(
      harness.database,
      sql`select topic, event_id, done_at is not null as done, due_at from outbox where payment_id = ${paymentId} order by id`,
    );
  const movesOf = async (paymentId: number) =>
    (
      await queryRows<{ from_status: string | null; to_status: string; cause: string }>(
        harness.database,
        sql`select from_status, to_status, cause from payment_status_changes where payment_id = ${paymentId} order by id`,
      )
    ).map((row) => [row.from_status, row.to_status, row.cause]);
  const logsOf = (paymentId: number) =>
    queryRows<{ kind: string; entry: unknown }>(harness.database, sql`select kind, entry from payment_logs where payment_id = ${paymentId} order by id`);
  const write = (changes: Partial<OutcomeWrite>): OutcomeWrite => ({
    expected: 'pending',
    transition: PENDING_TO_APPROVED,
    cause: 'adapter',
    declineReason: null,
    details: {},
    logs: [],
    notificationEventId: 'event-1',
    posting: null,
    ...changes,
  });

  it('creates a payment already pending, with its gateway, its /pay marker and one status check, in one statement', async () => {
    const before = Date.now();
    const payUntil = new Date(before + 60_000);
    const created = await insertPendingPayment(
      db(),
      row(),
      INIT_TO_PENDING,
      { gatewayId: null, gatewayAlias: 'acquirer', payExchangeUntil: payUntil },
      new Date(before + STATUS_CHECK_DELAY_MS),
      'api',
    );
    expect(created).toMatchObject({ status: 'pending', requestVariant: 'A', amountMinor: 1999 });
    expect(await findPaymentById(db(), created.id)).toMatchObject({
      status: 'pending',
      gatewayAlias: 'acquirer',
      gatewayId: null,
      finalizedAt: null,
      exchangeKind: 'pay', // its status checks wait for the /pay in flight
      exchangeUntil: payUntil,
    });
    const [check, ...others] = await outboxOf(created.id);
    expect(others).toEqual([]);
    expect(check).toMatchObject({ topic: 'status_check', done: false });
    expect(new Date(check!.due_at).getTime()).toBeGreaterThanOrEqual(before + STATUS_CHECK_DELAY_MS);
    expect(await movesOf(created.id)).toEqual([[null, 'pending', 'api']]); // born pending: it never was init
  });

  it('refuses to create a payment through any transition but init → pending', async () => {
    const due = new Date();
    await expect(
      insertPendingPayment(
        db(),
        row(),
        decideTransition('init', 'approved', NO_FINAL_CHANGE),
        { gatewayId: null, gatewayAlias: 'x', payExchangeUntil: due },
        due,
        'api',
      ),
    ).rejects.toThrow(/init → approved/);
    await expect(
      insertPendingPayment(db(), row(), PENDING_TO_APPROVED, { gatewayId: null, gatewayAlias: 'x', payExchangeUntil: due }, due, 'api'),
    ).rejects.toThrow(/pending → approved/);
  });

  it('finalizes a pending payment with its details, logs in order, closed status checks and one notification', async () => {
    const { id } = await sentPayment();
    const logs = [
      { kind: 'pay', entry: { step: 1 } },
      { kind: 'pay', entry: [2] },
      { kind: 'amount_ignored', entry: { step: 3 } },
    ];
    const written = await writeOutcome(
      db(),
      id,
      write({ transition: PENDING_TO_DECLINED, declineReason: 'insufficient funds', details: { gatewayToken: 'gw-1', gatewayDetails: { code: '51' } }, logs }),
      'full',
    );
    expect(written).toMatchObject({ id, status: 'declined', declineReason: 'insufficient funds', gatewayToken: 'gw-1', gatewayDetails: { code: '51' } });
    expect(written!.finalizedAt).toBeInstanceOf(Date);
    expect(await logsOf(id)).toEqual(logs);
    expect(await outboxOf(id)).toMatchObject([
      { topic: 'status_check', done: true },
      { topic: 'notification', event_id: 'event-1', done: false },
    ]);
    expect(await movesOf(id)).toEqual([
      [null, 'pending', 'api'],
      ['pending', 'declined', 'adapter'],
    ]);
  });

  it('writes nothing when the payment left the status the outcome was decided from (a callback won the race)', async () => {
    const { id } = await sentPayment();
    await db().transaction((tx) => transitionPayment(tx, id, PENDING_TO_DECLINED, { declineReason: 'by callback' }));
    const written = await writeOutcome(db(), id, write({ details: { gatewayToken: 'gw-late' }, logs: [{ kind: 'pay', entry: { late: true } }] }), 'created');
    expect(written).toBeNull();
    expect(await findPaymentById(db(), id)).toMatchObject({ status: 'declined', declineReason: 'by callback', gatewayToken: null });
    expect(await logsOf(id)).toEqual([]);
    expect(await outboxOf(id)).toMatchObject([{ topic: 'status_check', done: false }]);
    expect(await movesOf(id)).toEqual([
      [null, 'pending', 'api'],
      ['pending', 'declined', 'system'], // the fixture's move: the outcome recorded none
    ]);
  });

  it('records a move that is not final with its cause, in the same statement, and queues nothing', async () => {
    const { id } = await sentPayment();
    const toProcessing = decideTransition('pending', 'processing', NO_FINAL_CHANGE);
    const written = await writeOutcome(db(), id, write({ transition: toProcessing, cause: 'callback', notificationEventId: null }), 'full');
    expect(written).toMatchObject({ id, status: 'processing', finalizedAt: null });
    expect(await movesOf(id)).toEqual([
      [null, 'pending', 'api'],
      ['pending', 'processing', 'callback'],
    ]);
    expect(await outboxOf(id)).toMatchObject([{ topic: 'status_check', done: false }]);
  });

  it('refuses a transition decided from another status than the one it is applied to, and a final one without its notification', async () => {
    const { id } = await sentPayment();
    const fromInit = decideTransition('init', 'declined', NO_FINAL_CHANGE);
    await expect(writeOutcome(db(), id, write({ transition: fromInit }), 'created')).rejects.toThrow(/from init applied to a pending payment/);
    await expect(writeOutcome(db(), id, write({ notificationEventId: null }), 'created')).rejects.toThrow(/notification/);
    await expect(writeOutcome(db(), id, write({ details: { amountMinor: 1 } }), 'created')).rejects.toThrow(/amountMinor/);
    expect(await findPaymentById(db(), id)).toMatchObject({ status: 'pending' });
  });

  it('keeps the status without a transition: saves the details given, keeps the others, and queues nothing', async () => {
    const { id } = await sentPayment();
    const { updatedAt: createdUpdatedAt } = (await findPaymentById(db(), id))!;
    const untouched = await writeOutcome(db(), id, write({ transition: null, logs: [{ kind: 'pay', entry: 'waiting' }] }), 'created');
    expect(untouched).toMatchObject({ status: 'pending', redirectRequest: null });
    expect((await findPaymentById(db(), id))!.updatedAt).toEqual(createdUpdatedAt);
    const redirect = { url: 'https://acs.example/3ds', type: 'get' as const };
    await writeOutcome(db(), id, write({ transition: null, details: { gatewayToken: 'gw-3ds', redirectRequest: redirect } }), 'created');
    const stayed = await writeOutcome(db(), id, write({ transition: null, details: { providerResponseData: { eci: '05' } } }), 'full');
    expect(stayed).toMatchObject({
      status: 'pending',
      gatewayToken: 'gw-3ds',
      redirectRequest: redirect,
      providerResponseData: { eci: '05' },
      finalizedAt: null,
    });
    expect(stayed!.updatedAt.getTime()).toBeGreaterThan(createdUpdatedAt.getTime());
    expect(await logsOf(id)).toEqual([{ kind: 'pay', entry: 'waiting' }]);
    expect(await outboxOf(id)).toMatchObject([{ topic: 'status_check', done: false }]);
    expect(await movesOf(id)).toEqual([[null, 'pending', 'api']]); // the status stayed: nothing recorded
  });

  // The outcome statement closes the payment's status check. Prepared statements soon run a generic plan, and it once
  // walked outbox_due_idx over every open status check of every payment (41 under the H2H bench's load) to find it.
  it("closes the payment's own status check through its open-work index, whatever else is open (generic plan)", async () => {
    const other = await sentPayment();
    await harness.database.db.execute(sql`insert into outbox (topic, payment_id, due_at)
      select 'status_check', ${other.id}, now() + interval '1 minute' from generate_series(1, 2000)`);
    const plan = await db().transaction(async (tx) => {
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      await tx.execute(sql.raw(`prepare outcome_probe as ${finalOutcomeSql(db())}`));
      try {
        const described = (await tx.execute(sql`select cardinality(parameter_types) as count from pg_prepared_statements where name = 'outcome_probe'`)) as {
          rows: { count: number }[];
        };
        const parameterCount = Number(described.rows[0]?.count);
        expect(parameterCount).toBeGreaterThan(20);
        const nulls = Array.from({ length: parameterCount }, () => 'null').join(', ');
        return JSON.stringify(await tx.execute(sql.raw(`explain (format json) execute outcome_probe(${nulls})`)));
      } finally {
        await tx.execute(sql`deallocate outcome_probe`);
      }
    });
    expect(plan).toContain('outbox_open_payment_idx');
    expect(plan).not.toContain('outbox_due_idx');
  });

  it('claims due notifications with their payment and sealed merchant key, then records each attempt with its outcome', async () => {
    const { id } = await sentPayment();
    await writeOutcome(db(), id, write({ notificationEventId: 'event-claimed' }), 'created');
    await enqueue(db(), { topic: 'notification', paymentId: id, dueAt: new Date(Date.now() + 60_000), eventId: 'event-later' });
    const claimed = (await claimDueNotifications(db(), 50)).filter((work) => work.paymentId === id);
    expect(claimed).toHaveLength(1);
    const [work] = claimed;
    expect(work).toMatchObject({
      eventId: 'event-claimed',
      eventSequence: 1,
      attempts: 1,
      snapshot: { kind: 'payment', payment: { status: 'approved', cardMask: '411111******1111' } },
      delivery: { callbackUrl: 'https://merchant.example/callback' },
    });
    expect(work!.merchantKeySealed).toEqual(expect.any(String));
    expect((await claimDueNotifications(db(), 50)).filter((other) => other.paymentId === id)).toEqual([]); // leased

    const retryAt = new Date(Date.now() - 1000);
    const url = 'https://merchant.example/callback';
    await finishNotificationWork(db(), [
      {
        work: work!,
        eventId: 'event-claimed',
        attempt: { url, responseStatus: 503, error: 'HTTP 503', durationMs: 12 },
        next: { done: false, dueAt: retryAt, lastError: 'HTTP 503' },
      },
    ]);
    const [again] = (await claimDueNotifications(db(), 50)).filter((other) => other.paymentId === id);
    expect(again).toMatchObject({ id: work!.id, attempts: 2 });
    await finishNotificationWork(db(), [
      { work: again!, eventId: 'event-claimed', attempt: { url, responseStatus: 200, error: null, durationMs: 8 }, next: { done: true, lastError: null } },
    ]);

    const attempts = await queryRows<{ event_id: string; attempt_number: number; response_status: number; error: string | null }>(
      harness.database,
      sql`select event_id, attempt_number, response_status, error from notification_attempts where payment_id = ${id} order by id`,
    );
    expect(attempts).toEqual([
      { event_id: 'event-claimed', attempt_number: 1, response_status: 503, error: 'HTTP 503' },
      { event_id: 'event-claimed', attempt_number: 2, response_status: 200, error: null },
    ]);
    const rows = await queryRows<{ event_id: string; done: boolean; last_error: string | null; locked: boolean }>(
      harness.database,
      sql`select event_id, done_at is not null as done, last_error, locked_until is not null as locked from outbox where payment_id = ${id} and topic = 'notification' order by id`,
    );
    expect(rows).toEqual([
      { event_id: 'event-claimed', done: true, last_error: null, locked: false },
      { event_id: 'event-later', done: false, last_error: null, locked: false },
    ]);
  });

  it('writes a whole batch of outcomes at once, recording an attempt only where a request was sent', async () => {
    const sent = await sentPayment();
    const unsent = await sentPayment();
    await writeOutcome(db(), sent.id, write({ notificationEventId: 'event-sent' }), 'created');
    await writeOutcome(db(), unsent.id, write({ notificationEventId: 'event-unsent' }), 'created');
    const batch = (await claimDueNotifications(db(), 50)).filter((work) => work.paymentId === sent.id || work.paymentId === unsent.id);
    expect(batch).toHaveLength(2);
    const workOf = (paymentId: number) => batch.find((work) => work.paymentId === paymentId)!;
    const later = new Date(Date.now() + 60_000);
    await finishNotificationWork(db(), [
      {
        work: workOf(sent.id),
        eventId: 'event-sent',
        attempt: { url: 'https://merchant.example/callback', responseStatus: null, error: 'connection failed', durationMs: 3 },
        next: { done: false, dueAt: later, lastError: 'connection failed' },
      },
      { work: workOf(unsent.id), eventId: 'event-unsent', attempt: null, next: { done: true, lastError: 'gave up: no key' } },
    ]);
    const attempts = await queryRows<{ payment_id: number; error: string }>(
      harness.database,
      sql`select payment_id, error from notification_attempts where payment_id in (${sent.id}, ${unsent.id})`,
    );
    expect(attempts.map((attempt) => [Number(attempt.payment_id), attempt.error])).toEqual([[sent.id, 'connection failed']]);
    const rows = await queryRows<{ payment_id: number; done: boolean; last_error: string; due_at: string | Date; locked: boolean }>(
      harness.database,
      sql`select payment_id, done_at is not null as done, last_error, due_at, locked_until is not null as locked from outbox
        where payment_id in (${sent.id}, ${unsent.id}) and topic = 'notification' order by payment_id`,
    );
    expect(rows.map((row) => [Number(row.payment_id), row.done, row.last_error, row.locked])).toEqual([
      [sent.id, false, 'connection failed', false],
      [unsent.id, true, 'gave up: no key', false],
    ]);
    expect(new Date(rows[0]!.due_at).getTime()).toBe(later.getTime());
  });
});
