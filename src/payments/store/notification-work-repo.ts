import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { NotificationSnapshot, SnapshotRecord } from '../domain/notification-body.ts';
import type { Db } from '../../platform/database.ts';
import type { PaymentRow } from './payments-repo.ts';
import { OUTBOX_LEASE_MS, type OutboxRow } from './outbox-repo.ts';
import { disputes, merchantKeys, notificationAttempts, outbox, payments, refunds } from './schema.ts';

// The notifier's two statements per batch: one claims due notifications together with what each delivery needs
// (the event's snapshot, the callback URL, the merchant's sealed key); one records every attempt with the completion
// or rescheduling of its outbox row, so an attempt is never recorded without its outcome. A row queued before
// snapshots were kept is told from the rows as they are now.

const NOTIFIED_PAYMENT_COLUMNS = {
  token: payments.token,
  operationType: payments.operationType,
  status: payments.status,
  extraReturnParam: payments.extraReturnParam,
  orderNumber: payments.orderNumber,
  walletToken: payments.walletToken,
  issuedWalletToken: payments.issuedWalletToken,
  amountMinor: payments.amountMinor,
  currency: payments.currency,
  gatewayAmountMinor: payments.gatewayAmountMinor,
  gatewayCurrency: payments.gatewayCurrency,
  cardHolder: payments.cardHolder,
  cardMask: payments.cardMask,
  declineReason: payments.declineReason,
  callbackUrl: payments.callbackUrl,
  merchantId: payments.merchantId,
  environment: payments.environment,
};
const CLAIMED_COLUMNS = {
  id: outbox.id,
  paymentId: outbox.paymentId,
  refundId: outbox.refundId,
  disputeId: outbox.disputeId,
  eventId: outbox.eventId,
  eventSequence: outbox.eventSequence,
  eventSnapshot: outbox.eventSnapshot,
  attempts: outbox.attempts,
};

type NotifiedPayment = Pick<PaymentRow, keyof typeof NOTIFIED_PAYMENT_COLUMNS>;

export interface NotificationWork extends Pick<OutboxRow, 'id' | 'paymentId' | 'eventId' | 'eventSequence' | 'attempts'> {
  snapshot: NotificationSnapshot;
  delivery: Pick<PaymentRow, 'callbackUrl' | 'merchantId' | 'environment'>;
  merchantKeySealed: string | null; // null: the merchant has no key of the payment's environment
}

// The flat columns of a joined refund or dispute (a left join: all null when the work is not about one).
const RECORD_COLUMNS = {
  refundToken: refunds.token,
  refundStatus: refunds.status,
  refundAmountMinor: refunds.amountMinor,
  refundCurrency: refunds.currency,
  refundDeclineReason: refunds.declineReason,
  disputeToken: disputes.token,
  disputeStatus: disputes.status,
  disputeAmountMinor: disputes.amountMinor,
  disputeCurrency: disputes.currency,
};

// A payment's notifications go out in event order: one waits while an earlier one of its payment has not had its
// first attempt (its retries do not hold it back). Rows queued before sequences were kept take no part.
// Written as a correlated scalar subquery (the lowest open unattempted sequence of the row's payment, through
// outbox_notification_sequence_idx), not NOT EXISTS: on an outbox without statistics yet (a new database, or one
// autovacuum has not reached) the planner turned NOT EXISTS into an anti-join that rescanned every open notification
// for each candidate, so a claim cost the square of the backlog (2.5 s at 3,000 open rows) and delivery fell behind.
const notBehindAnEarlierEvent = sql`(${outbox.eventSequence} is null or coalesce((select min(earlier.event_sequence) from ${outbox} earlier
  where earlier.payment_id = ${outbox.paymentId} and earlier.topic = 'notification' and earlier.done_at is null
    and earlier.first_attempted_at is null), ${outbox.eventSequence}) >= ${outbox.eventSequence})`;

// The claim as a query (its placeholders: now, leaseUntil, batchSizeMax), exported for the test that reads its plan.
export function notificationClaimQuery(db: Db) {
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.topic, 'notification'),
        isNull(outbox.doneAt),
        lte(outbox.dueAt, now),
        or(isNull(outbox.lockedUntil), lte(outbox.lockedUntil, now)),
        notBehindAnEarlierEvent,
      ),
    )
    .orderBy(asc(outbox.dueAt), asc(outbox.eventSequence))
    .limit(sql.placeholder('batchSizeMax'))
    .for('update', { skipLocked: true });
  const claiming = db
    .update(outbox)
    .set({ lockedUntil: sql`${sql.placeholder('leaseUntil')}::timestamptz`, attempts: sql`${outbox.attempts} + 1` })
    .where(inArray(outbox.id, due))
    .returning(CLAIMED_COLUMNS);
  const claimed = db.$with('claimed', CLAIMED_COLUMNS).as(claiming.getSQL());
  return db
    .with(claimed)
    .select({
      id: claimed.id,
      paymentId: claimed.paymentId,
      eventId: claimed.eventId,
      eventSequence: claimed.eventSequence,
      eventSnapshot: claimed.eventSnapshot,
      refundId: claimed.refundId,
      disputeId: claimed.disputeId,
      attempts: claimed.attempts,
      payment: NOTIFIED_PAYMENT_COLUMNS,
      ...RECORD_COLUMNS,
      merchantKeySealed: merchantKeys.keySealed,
    })
    .from(claimed)
    .innerJoin(payments, eq(payments.id, claimed.paymentId))
    .leftJoin(refunds, eq(refunds.id, claimed.refundId))
    .leftJoin(disputes, eq(disputes.id, claimed.disputeId))
    .leftJoin(merchantKeys, and(eq(merchantKeys.merchantId, payments.merchantId), eq(merchantKeys.environment, payments.environment)));
}

const prepareClaim = (db: Db) => notificationClaimQuery(db).prepare('payrail_claim_notifications');

// Every attempt of a batch with the outcome of its outbox row, in one statement: an attempt is never recorded
// without its row done or due again, and a batch of deliveries costs one round trip, not one each.
function prepareFinish(db: Db) {
  const input = db.$with('input', {}).as(sql`select * from jsonb_to_recordset(${sql.placeholder('outcomes')}::jsonb) as outcome(
    outbox_id bigint, payment_id bigint, event_id text, attempt_number integer, attempted boolean, url text,
    response_status smallint, error text, duration_ms integer, done boolean, due_at timestamptz, last_error text)`);
  const recorded = db.$with('recorded', {}).as(sql`insert into ${notificationAttempts}
    (payment_id, event_id, attempt_number, url, response_status, error, duration_ms)
    select payment_id, event_id, attempt_number, url, response_status, error, duration_ms from input where attempted`);
  const finished = db.$with('finished', { id: outbox.id }).as(sql`update ${outbox}
    set done_at = case when input.done then ${sql.placeholder('now')}::timestamptz end, due_at = coalesce(input.due_at, outbox.due_at),
      first_attempted_at = coalesce(outbox.first_attempted_at, ${sql.placeholder('now')}::timestamptz),
      locked_until = null, last_error = input.last_error
    from input where outbox.id = input.outbox_id returning outbox.id`);
  return db
    .with(input, recorded, finished)
    .select({ finished: sql<number>`count(*)`.mapWith(Number) })
    .from(finished)
    .prepare('payrail_finish_notifications');
}

const prepared = new WeakMap<Db, { claim: ReturnType<typeof prepareClaim>; finish: ReturnType<typeof prepareFinish> }>();

function statementsOf(db: Db) {
  let statements = prepared.get(db);
  if (!statements) {
    statements = { claim: prepareClaim(db), finish: prepareFinish(db) };
    prepared.set(db, statements);
  }
  return statements;
}

// Claims due notifications with FOR UPDATE SKIP LOCKED under a lease, as claimDue does for every topic.
export async function claimDueNotifications(db: Db, batchSizeMax: number): Promise<NotificationWork[]> {
  const now = new Date();
  const rows = await statementsOf(db).claim.execute({
    now: now.toISOString(),
    leaseUntil: new Date(now.getTime() + OUTBOX_LEASE_MS).toISOString(),
    batchSizeMax,
  });
  return rows.map((row) => ({
    id: row.id,
    paymentId: row.paymentId,
    eventId: row.eventId,
    eventSequence: row.eventSequence,
    attempts: row.attempts,
    snapshot: row.eventSnapshot ?? snapshotFromRows(row),
    delivery: { callbackUrl: row.payment.callbackUrl, merchantId: row.payment.merchantId, environment: row.payment.environment },
    merchantKeySealed: row.merchantKeySealed,
  }));
}

type ClaimedRow = { refundId: number | null; disputeId: number | null; payment: NotifiedPayment } & {
  [K in keyof typeof RECORD_COLUMNS]: (typeof RECORD_COLUMNS)[K]['_']['data'] | null;
};

// A row queued before snapshots were kept: told from the payment and its refund or dispute as they are now.
function snapshotFromRows(row: ClaimedRow): NotificationSnapshot {
  const { payment } = row;
  let record: SnapshotRecord | null = null;
  let kind: NotificationSnapshot['kind'] = 'payment';
  if (row.refundId !== null && row.refundToken !== null && row.refundStatus !== null && row.refundAmountMinor !== null && row.refundCurrency !== null) {
    kind = 'refund';
    const { refundToken: token, refundStatus: status, refundAmountMinor: amountMinor, refundCurrency: currency, refundDeclineReason: declineReason } = row;
    record = { token, status, amountMinor, currency, declineReason };
  } else if (
    row.disputeId !== null &&
    row.disputeToken !== null &&
    row.disputeStatus !== null &&
    row.disputeAmountMinor !== null &&
    row.disputeCurrency !== null
  ) {
    kind = 'dispute';
    record = { token: row.disputeToken, status: row.disputeStatus, amountMinor: row.disputeAmountMinor, currency: row.disputeCurrency, declineReason: null };
  }
  const walletToken = payment.walletToken ?? payment.issuedWalletToken;
  return {
    kind,
    occurredAt: new Date().toISOString(),
    payment: {
      token: payment.token,
      operationType: payment.operationType,
      status: payment.status,
      amountMinor: payment.amountMinor,
      currency: payment.currency,
      gatewayAmountMinor: payment.gatewayAmountMinor,
      gatewayCurrency: payment.gatewayCurrency,
      extraReturnParam: payment.extraReturnParam,
      orderNumber: payment.orderNumber,
      cardHolder: payment.cardHolder,
      cardMask: payment.cardMask,
      declineReason: payment.declineReason,
      walletToken,
      walletDisplayName: walletToken === null ? null : payment.cardMask,
    },
    record,
    conflict: null,
  };
}

interface NotificationAttempt {
  url: string;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

// What follows a delivery: the row is done (delivered, or given up with its reason), or due again later.
export type NotificationNext = { done: true; lastError: string | null } | { done: false; dueAt: Date; lastError: string };

export interface NotificationOutcome {
  work: NotificationWork;
  eventId: string;
  attempt: NotificationAttempt | null; // null: nothing was sent (no callback URL, or a failure before the request)
  next: NotificationNext;
}

export async function finishNotificationWork(db: Db, outcomes: readonly NotificationOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = outcomes.map(({ work, eventId, attempt, next }) => ({
    outbox_id: work.id,
    payment_id: work.paymentId,
    event_id: eventId,
    attempt_number: work.attempts,
    attempted: attempt !== null,
    url: attempt?.url ?? null,
    response_status: attempt?.responseStatus ?? null,
    error: attempt?.error ?? null,
    duration_ms: attempt?.durationMs ?? null,
    done: next.done,
    due_at: next.done ? null : next.dueAt.toISOString(),
    last_error: next.lastError,
  }));
  await statementsOf(db).finish.execute({ outcomes: JSON.stringify(rows), now: new Date().toISOString() });
}
