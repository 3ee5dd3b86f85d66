import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeOf, refundReleased, refundReserved, refundSent } from '../../../src/ledger/domain/ledger-postings.ts';
import { ledgerTransaction } from '../../../src/ledger/store/ledger-repo.ts';
import { type AdapterOutcome, pendingOutcome } from '../../../src/payments/domain/adapter-outcome.ts';
import { newEventId } from '../../../src/payments/domain/event-id.ts';
import { applyRefundAnswer } from '../../../src/payments/flows/refund-outcome.ts';
import { insertNotificationEvent } from '../../../src/payments/store/notification-events-repo.ts';
import { insertReservedRefund, lockPaymentToRefund } from '../../../src/payments/store/refund-reservation-repo.ts';
import { settleRefundWithLogs } from '../../../src/payments/store/refund-settle-repo.ts';
import { lockRefundWithPayment, type FinalRefundStatus, type RefundRow } from '../../../src/payments/store/refunds-repo.ts';
import type { Tx } from '../../../src/platform/database.ts';
import { runInAuditContext } from '../../../src/platform/lib/audit-context.ts';
import { approvedPayment, usdWallet } from './disputes-fixtures.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const PAID = 1000;

// The /refund's own answer (flows/refund-outcome.ts applyRefundAnswer): a final one is written by one statement
// outside a transaction (store/refund-settle-repo.ts, unlocked), which takes the payment's lock itself, hands the audit
// settings over itself and takes the notification's number from the payment's counter (migration 0020); it writes
// nothing when the refund is no longer pending or its approval may complete the payment, and the locked path decides.
describe.each(engines)('a refund’s own answer on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant('Refund answers');
  });
  afterAll(async () => {
    await harness?.close();
  });

  const db = () => harness.database.db;
  const scope = () => ({ merchantId: merchant.id, environment: 'sandbox' as const });
  const asKey = <T>(work: () => Promise<T>) =>
    runInAuditContext({ actor: 'key:answer-test', action: null, requestId: 'req-refund-answer', ipAddress: '203.0.113.9' }, work);

  // What refundPayment stores before it calls the adapter: the refund pending, holding its marker, reserved.
  const reserve = (paymentToken: string, amountMinor: number): Promise<RefundRow> =>
    ledgerTransaction(db(), async (tx) => {
      const locked = await lockPaymentToRefund(tx, scope(), paymentToken);
      if (!locked) throw new Error('payment not found');
      const later = new Date(Date.now() + 60_000);
      const posting = refundReserved(chargeOf(amountMinor, 'USD', locked.terms));
      const refund = { token: randomBytes(16).toString('hex'), payment: locked.payment, amountMinor, terms: locked.terms };
      return insertReservedRefund(tx, refund, { firstCheckAt: later, exchangeUntil: later }, { scope: locked.payment, posting }, null, true);
    });

  const outcome = (status: AdapterOutcome['status'], declineReason: string | null = null): AdapterOutcome => ({
    ...pendingOutcome(null),
    status,
    declineReason,
    gatewayToken: `gw-${status}`,
  });

  // An approved payment whose approval was told (the fixture's bare move tells nothing): its event number 1.
  const toldPayment = async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey, PAID);
    const told = { paymentId: payment.id, kind: 'payment' as const, refundId: null, disputeId: null, conflict: null };
    await db().transaction((tx) => insertNotificationEvent(tx, { ...told, eventId: newEventId(), occurredAt: new Date() }));
    return payment;
  };

  // The statement alone, unlocked, as applyRefundAnswer runs it first.
  const settleUnlocked = (refund: RefundRow, status: FinalRefundStatus) => {
    const charge = chargeOf(refund.amountMinor, 'USD', { percentBp: refund.commissionPercentBp, fixedMinor: refund.commissionFixedMinor });
    return settleRefundWithLogs(db(), refund, status, { gatewayToken: `gw-${status}`, declineReason: status === 'declined' ? 'no' : null }, [], {
      notificationEventId: newEventId(),
      posting: status === 'approved' ? refundSent(charge) : refundReleased(charge),
      scope: scope(),
      releasedMinor: status === 'approved' ? 0 : refund.amountMinor,
      unlocked: true,
    });
  };

  const events = (paymentId: number) =>
    queryRows<{ sequence: number; kind: string; refund_id: string | null; status: string }>(
      harness.database,
      sql`select event_sequence as sequence, event_snapshot ->> 'kind' as kind, refund_id::text,
        coalesce(event_snapshot -> 'record' ->> 'status', event_snapshot -> 'payment' ->> 'status') as status
        from outbox where payment_id = ${paymentId} and topic = 'notification' order by event_sequence, id`,
    );
  const paymentRow = async (paymentId: number) => {
    const [row] = await queryRows<{ counter: number; refunded: string; status: string }>(
      harness.database,
      sql`select last_event_sequence as counter, refunded_minor::text as refunded, status from payments where id = ${paymentId}`,
    );
    return { counter: Number(row?.counter), refunded: Number(row?.refunded), status: row?.status };
  };
  const refundStatus = async (refundId: number) =>
    (await queryRows<{ status: string }>(harness.database, sql`select status from refunds where id = ${refundId}`))[0]?.status;
  const logCount = async (paymentId: number) =>
    Number((await queryRows<{ n: string }>(harness.database, sql`select count(*)::text as n from payment_logs where payment_id = ${paymentId}`))[0]?.n);

  it('settles an approval in one statement: told after the payment’s own event, audited as the key, the hold sent', async () => {
    const payment = await toldPayment();
    const refund = await reserve(payment.token, 300);
    const before = await usdWallet(harness.database, merchant.id);
    const settled = await asKey(() => settleUnlocked(refund, 'approved'));
    expect(settled).toMatchObject({ id: refund.id, status: 'approved', gatewayToken: 'gw-approved', exchangeUntil: null });
    expect(await events(payment.id)).toEqual([
      { sequence: 1, kind: 'payment', refund_id: null, status: 'approved' },
      { sequence: 2, kind: 'refund', refund_id: String(refund.id), status: 'approved' },
    ]);
    expect(await paymentRow(payment.id)).toEqual({ counter: 2, refunded: 300, status: 'approved' });
    expect((await usdWallet(harness.database, merchant.id)).hold).toBe(before.hold - 300);
    const audited = await queryRows<{ actor: string; request_id: string; ip_address: string; after: { status?: string } }>(
      harness.database,
      sql`select actor, request_id, ip_address, after from audit_events where subject_type = 'refund' and subject_id = ${String(refund.id)} order by id`,
    );
    expect(audited.at(-1)).toMatchObject({
      actor: 'key:answer-test',
      request_id: 'req-refund-answer',
      ip_address: '203.0.113.9',
      after: { status: 'approved' },
    });
  });

  it('settles a decline in one statement: the amount refundable again, the hold back in available, told once', async () => {
    const payment = await toldPayment();
    const before = await usdWallet(harness.database, merchant.id);
    const refund = await reserve(payment.token, 400);
    expect(await asKey(() => settleUnlocked(refund, 'declined'))).toMatchObject({ status: 'declined', declineReason: 'no' });
    expect(await paymentRow(payment.id)).toEqual({ counter: 2, refunded: 0, status: 'approved' });
    expect(await usdWallet(harness.database, merchant.id)).toEqual(before);
    expect((await events(payment.id)).map((event) => [event.sequence, event.kind, event.status])).toEqual([
      [1, 'payment', 'approved'],
      [2, 'refund', 'declined'],
    ]);
  });

  it('writes nothing, not even its logs, for a refund that is no longer pending: the locked path adds the logs', async () => {
    const payment = await toldPayment();
    const refund = await reserve(payment.token, 100);
    await asKey(() => settleUnlocked(refund, 'approved'));
    const logs = await logCount(payment.id);
    expect(await asKey(() => settleUnlocked(refund, 'declined'))).toBeNull();
    expect(await paymentRow(payment.id)).toEqual({ counter: 2, refunded: 100, status: 'approved' });
    expect(await logCount(payment.id)).toBe(logs);
    const late = await asKey(() => applyRefundAnswer(db(), refund, outcome('declined', 'too late'), [{ kind: 'refund', note: 'late' }], 'adapter'));
    expect(late.status).toBe('approved');
    expect(await logCount(payment.id)).toBe(logs + 1);
    expect(await events(payment.id)).toHaveLength(2);
  });

  it('leaves an approval that takes the last captured unit to the locked path, which tells the payment’s move first', async () => {
    const payment = await toldPayment();
    const first = await reserve(payment.token, 600);
    const last = await reserve(payment.token, 400);
    expect(await asKey(() => settleUnlocked(last, 'approved'))).toBeNull(); // it would take the last unit
    expect(await refundStatus(last.id)).toBe('pending');
    expect(await paymentRow(payment.id)).toEqual({ counter: 1, refunded: 1000, status: 'approved' });
    // the first takes no last unit of its own, but the payment has none left untaken: the locked path decides it too
    expect((await asKey(() => applyRefundAnswer(db(), first, outcome('approved'), [], 'adapter'))).status).toBe('approved');
    expect((await asKey(() => applyRefundAnswer(db(), last, outcome('approved'), [], 'adapter'))).status).toBe('approved');
    expect(await paymentRow(payment.id)).toEqual({ counter: 4, refunded: 1000, status: 'refunded' });
    expect((await events(payment.id)).map((event) => [event.sequence, event.kind, event.status])).toEqual([
      [1, 'payment', 'approved'],
      [2, 'refund', 'approved'],
      [3, 'payment', 'refunded'],
      [4, 'refund', 'approved'],
    ]);
  });

  it('counts on from the outbox’s highest number for a payment notified before the counter (migration 0020)', async () => {
    const payment = await toldPayment(); // then made to look notified before the counter
    await harness.database.db.execute(sql`update payments set last_event_sequence = 0 where id = ${payment.id}`);
    const refund = await reserve(payment.token, 200);
    await asKey(() => settleUnlocked(refund, 'approved'));
    expect((await events(payment.id)).map((event) => event.sequence)).toEqual([1, 2]);
    expect((await paymentRow(payment.id)).counter).toBe(2);
  });

  it('fails whole when a balance its posting debits is missing: the refund stays pending, nothing is told', async () => {
    const other = await harness.createMerchant('Refund answers, broken books');
    const payment = await approvedPayment(harness, other.sandboxKey, PAID);
    const refund = await ledgerTransaction(db(), async (tx) => {
      const locked = await lockPaymentToRefund(tx, { merchantId: other.id, environment: 'sandbox' }, payment.token);
      if (!locked) throw new Error('payment not found');
      const posting = refundReserved(chargeOf(300, 'USD', locked.terms));
      const later = new Date(Date.now() + 60_000);
      const reserved = { token: randomBytes(16).toString('hex'), payment: locked.payment, amountMinor: 300, terms: locked.terms };
      return insertReservedRefund(tx, reserved, { firstCheckAt: later, exchangeUntil: later }, { scope: locked.payment, posting }, null, true);
    });
    // what the ledger's invariants rule out: the hold the refund's answer debits is gone
    await harness.database.db.execute(sql`delete from ledger_balances where merchant_id = ${other.id} and account = 'hold'`);
    const charge = chargeOf(300, 'USD', { percentBp: refund.commissionPercentBp, fixedMinor: refund.commissionFixedMinor });
    const settling = settleRefundWithLogs(db(), refund, 'approved', { gatewayToken: 'gw', declineReason: null }, [], {
      notificationEventId: newEventId(),
      posting: refundSent(charge),
      scope: { merchantId: other.id, environment: 'sandbox' },
      releasedMinor: 0,
      unlocked: true,
    });
    await expect(asKey(() => settling)).rejects.toThrow(/a balance it debits missing/);
    expect(await refundStatus(refund.id)).toBe('pending');
    expect(await paymentRow(payment.id)).toEqual({ counter: 0, refunded: 300, status: 'approved' });
    expect(await events(payment.id)).toEqual([]);
  });

  // PostgreSQL only (declared there alone): PGlite runs one statement at a time, so nothing waits for a lock there.
  if (engine !== 'postgres') return;
  describe('beside a transaction that holds the payment’s lock', () => {
    const waitingForALock = async () => {
      await expect
        .poll(
          async () =>
            Number(
              (await queryRows<{ n: string }>(harness.database, sql`select count(*)::text as n from pg_stat_activity where wait_event_type = 'Lock'`))[0]?.n,
            ),
          { timeout: 10_000, interval: 20 },
        )
        .toBeGreaterThan(0);
    };
    // Runs `holder` in a transaction that stays open until `waiter`, started once the holder has its locks, waits for one.
    const whileHeld = async <T>(holder: (tx: Tx) => Promise<void>, waiter: () => Promise<T>): Promise<T> => {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let held = () => {};
      const holding = new Promise<void>((resolve) => {
        held = resolve;
      });
      const transaction = db().transaction(async (tx) => {
        await holder(tx);
        held();
        await released;
      });
      await holding;
      const waiting = waiter();
      await waitingForALock();
      release();
      await transaction;
      return waiting;
    };

    it('takes the number after an event the holder queued, seen through the counter, not through its snapshot', async () => {
      const payment = await toldPayment();
      const refund = await reserve(payment.token, 300);
      const settled = await whileHeld(
        async (tx) => {
          await tx.execute(sql`select id from payments where id = ${payment.id} for update`);
          const told = { paymentId: payment.id, kind: 'payment' as const, refundId: null, disputeId: null, conflict: null };
          await insertNotificationEvent(tx, { ...told, eventId: newEventId(), occurredAt: new Date() }, true);
        },
        () => asKey(() => settleUnlocked(refund, 'approved')),
      );
      expect(settled?.status).toBe('approved');
      expect((await events(payment.id)).map((event) => [event.sequence, event.kind])).toEqual([
        [1, 'payment'],
        [2, 'payment'],
        [3, 'refund'],
      ]);
    });

    it('writes nothing once the holder settled the refund: no second event, the amount released once', async () => {
      const payment = await toldPayment();
      const refund = await reserve(payment.token, 300);
      const settled = await whileHeld(
        async (tx) => {
          if (!(await lockRefundWithPayment(tx, refund.id, payment.id))) throw new Error('refund not found');
          const charge = chargeOf(300, 'USD', { percentBp: refund.commissionPercentBp, fixedMinor: refund.commissionFixedMinor });
          const settlement = { notificationEventId: newEventId(), posting: refundReleased(charge), scope: scope(), releasedMinor: 300, unlocked: false };
          expect(await settleRefundWithLogs(tx, refund, 'declined', { gatewayToken: null, declineReason: 'first' }, [], settlement)).not.toBeNull();
        },
        () => asKey(() => settleUnlocked(refund, 'approved')),
      );
      expect(settled).toBeNull();
      expect(await refundStatus(refund.id)).toBe('declined');
      expect(await paymentRow(payment.id)).toEqual({ counter: 2, refunded: 0, status: 'approved' });
      expect(await events(payment.id)).toHaveLength(2);
    });

    it('numbers concurrent answers about refunds of one payment one after another', async () => {
      const payment = await toldPayment();
      const refunds = [];
      for (let index = 0; index < 6; index += 1) refunds.push(await reserve(payment.token, 100));
      const statuses: FinalRefundStatus[] = ['approved', 'declined', 'approved', 'declined', 'approved', 'approved'];
      const settled = await Promise.all(refunds.map((refund, index) => asKey(() => settleUnlocked(refund, statuses[index] ?? 'approved'))));
      expect(settled.map((row) => row?.status)).toEqual(statuses);
      expect((await events(payment.id)).map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(await paymentRow(payment.id)).toEqual({ counter: 7, refunded: 400, status: 'approved' });
    });
  });
});
