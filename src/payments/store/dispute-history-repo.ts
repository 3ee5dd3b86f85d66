import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { outbox } from './schema.ts';

// Every status a dispute took (its opening included) queued the merchant's notification with a snapshot of the
// dispute in that transaction (flows/notification-events.ts): read back in order, they are its status history.
const DISPUTE_EVENTS_LISTED_MAX = 20; // open, under review, resolved: a few; the bound keeps a read bounded

export interface DisputeStatusEvent {
  status: string;
  occurredAt: string; // ISO 8601, as the snapshot took it
}

export async function listDisputeStatusEvents(db: DbOrTx, dispute: { id: number; paymentId: number }): Promise<DisputeStatusEvent[]> {
  const rows = await db
    .select({ snapshot: outbox.eventSnapshot })
    .from(outbox)
    .where(and(eq(outbox.paymentId, dispute.paymentId), eq(outbox.topic, 'notification'), eq(outbox.disputeId, dispute.id)))
    .orderBy(asc(outbox.eventSequence), asc(outbox.id))
    .limit(DISPUTE_EVENTS_LISTED_MAX);
  return rows.flatMap(({ snapshot }) =>
    snapshot?.kind === 'dispute' && snapshot.record !== null ? [{ status: snapshot.record.status, occurredAt: snapshot.occurredAt }] : [],
  );
}
