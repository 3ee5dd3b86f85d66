import { asc, eq } from 'drizzle-orm';
import type { PaymentStatus } from '../domain/payment-status.ts';
import type { StatusCause } from '../domain/status-cause.ts';
import type { Db, DbOrTx } from '../../platform/database.ts';
import { paymentStatusChanges } from './schema.ts';
import { currentActor } from '../../platform/lib/audit-context.ts';

// A payment's recorded status history (tables-status-changes.ts). The one-statement writers (the inserts of
// payments-repo.ts, outcome-statement-repo.ts) write their row in their own statement; the others call this.

// A payment's moves are a handful (a final → final change needs the gateway's enable_change_final_status): the
// bound only guards.
const STATUS_CHANGES_MAX = 500;

export type StatusChangeRow = typeof paymentStatusChanges.$inferSelect;

export interface StatusChangeInsert {
  paymentId: number;
  fromStatus: PaymentStatus | null; // null: the status the payment was created with
  toStatus: PaymentStatus;
  cause: StatusCause;
  at: Date; // the payment's updated_at as the move left it
}

export async function insertStatusChange(db: DbOrTx, change: StatusChangeInsert): Promise<void> {
  const { at, ...columns } = change;
  await db.insert(paymentStatusChanges).values({ ...columns, actor: currentActor(), createdAt: at });
}

export async function listStatusChanges(db: Db, paymentId: number): Promise<StatusChangeRow[]> {
  return db
    .select()
    .from(paymentStatusChanges)
    .where(eq(paymentStatusChanges.paymentId, paymentId))
    .orderBy(asc(paymentStatusChanges.id))
    .limit(STATUS_CHANGES_MAX);
}
