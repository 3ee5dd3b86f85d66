import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { outbox } from './schema.ts';

// Whether a payment has a status check still to run (its /pay queued one; a step answer may queue another).
export async function hasOpenStatusCheck(db: DbOrTx, paymentId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.paymentId, paymentId), eq(outbox.topic, 'status_check'), isNull(outbox.doneAt)))
    .limit(1);
  return row !== undefined;
}
