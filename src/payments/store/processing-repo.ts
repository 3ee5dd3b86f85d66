import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { namedStatement } from '../../platform/lib/named-statements.ts';
import { decideTransition, NO_FINAL_CHANGE } from '../domain/payment-status.ts';
import type { StatusCause } from '../domain/status-cause.ts';
import type { Db, DbOrTx, Tx } from '../../platform/database.ts';
import { assertPaymentJson } from './json-columns.ts';
import type { PaymentChanges } from './payment-changes.ts';
import type { PaymentRow } from './payments-repo.ts';
import { payments } from './schema.ts';
import { insertStatusChange } from './status-changes-repo.ts';

// A payment row read, locked, or changed beside its status; its status changes through store/status-writer.ts
// (a locked change) or store/outcome-statement-repo.ts (a /pay answer in one statement), and markProcessing.

export async function findPaymentById(db: DbOrTx, paymentId: number): Promise<PaymentRow | null> {
  const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
  return row ?? null;
}

export async function findPaymentByTokenUnscoped(db: Db, token: string): Promise<PaymentRow | null> {
  if (!/^[0-9a-f]{32}$/.test(token)) return null;
  const [row] = await db.select().from(payments).where(eq(payments.token, token));
  return row ?? null;
}

const paymentLock = namedStatement<null, PaymentRow[]>('payment_lock', (tx, _shape, p) =>
  (tx as Tx)
    .select()
    .from(payments)
    .where(eq(payments.id, p('paymentId')))
    .for('update'),
);

export async function lockPayment(tx: Tx, paymentId: number): Promise<PaymentRow | null> {
  const [row] = await paymentLock.run(tx, null, { paymentId });
  return row ?? null;
}

export async function updatePayment(db: DbOrTx, paymentId: number, changes: PaymentChanges): Promise<PaymentRow> {
  if (Object.hasOwn(changes, 'status') || Object.hasOwn(changes, 'finalizedAt'))
    throw new Error('a payment status changes only through writeStatusChange (domain/status-change.ts decides it)');
  assertPaymentJson(changes);
  const [row] = await db
    .update(payments)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(payments.id, paymentId))
    .returning();
  if (!row) throw new Error(`payment ${paymentId} vanished`);
  return row;
}

export const INIT_TO_PENDING = decideTransition('init', 'pending', NO_FINAL_CHANGE);

// init → pending, once, and only within the payment's lifetime: a second submit of the same payment, or one that
// comes after expires_at but before the expiry worker ran, loses cleanly (null) in this one conditional update.
// A payout never goes out through /pay (its processingUrl shows it, nothing more): only a pay moves this way.
// The move is worth nothing to the ledger (domain postingForTransition) and queues nothing; it is recorded in the
// payment's status history with the cause of the submit.
export async function markProcessing(tx: Tx, paymentId: number, changes: PaymentChanges, cause: StatusCause, now = new Date()): Promise<PaymentRow | null> {
  if (Object.hasOwn(changes, 'status') || Object.hasOwn(changes, 'finalizedAt')) throw new Error('the transition sets the status');
  const [row] = await tx
    .update(payments)
    .set({ ...changes, status: INIT_TO_PENDING.to, updatedAt: now })
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.status, INIT_TO_PENDING.from),
        eq(payments.operationType, 'pay'),
        or(isNull(payments.expiresAt), gt(payments.expiresAt, now)),
      ),
    )
    .returning();
  if (!row) return null;
  await insertStatusChange(tx, { paymentId, fromStatus: INIT_TO_PENDING.from, toStatus: INIT_TO_PENDING.to, cause, at: now });
  return row;
}
