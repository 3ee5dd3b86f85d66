import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { auditEvents } from './schema.ts';

export type AuditEventRow = typeof auditEvents.$inferSelect;
export type NewAuditEvent = Pick<
  typeof auditEvents.$inferInsert,
  'actor' | 'action' | 'subjectType' | 'subjectId' | 'before' | 'after' | 'requestId' | 'ipAddress'
>;

// The only writer of audit_events in the code: an insert (the table refuses UPDATE and DELETE by a trigger).
export async function insertAuditEvent(db: DbOrTx, event: NewAuditEvent): Promise<void> {
  await db.insert(auditEvents).values(event);
}

export interface AuditEventFilter {
  subjectType: string | null;
  subjectId: string | null;
  actor: string | null;
  action: string | null;
  from: Date | null; // occurred at or after
  to: Date | null; // occurred before
  beforeId: number | null; // keyset: the page after this id (newest first)
}

// Newest first by id; each filter an equality one of the table's indexes serves.
export async function listAuditEvents(db: DbOrTx, filter: AuditEventFilter, limit: number): Promise<AuditEventRow[]> {
  const conditions: (SQL | undefined)[] = [
    filter.subjectType === null ? undefined : eq(auditEvents.subjectType, filter.subjectType),
    filter.subjectId === null ? undefined : eq(auditEvents.subjectId, filter.subjectId),
    filter.actor === null ? undefined : eq(auditEvents.actor, filter.actor),
    filter.action === null ? undefined : eq(auditEvents.action, filter.action),
    filter.from === null ? undefined : gte(auditEvents.occurredAt, filter.from),
    filter.to === null ? undefined : lt(auditEvents.occurredAt, filter.to),
    filter.beforeId === null ? undefined : lt(auditEvents.id, filter.beforeId),
  ];
  return db
    .select()
    .from(auditEvents)
    .where(and(...conditions))
    .orderBy(desc(auditEvents.id))
    .limit(limit);
}
