import type { Database } from '../../src/platform/database.ts';
import { listAuditEvents } from '../../src/back-office/store/audit-repo.ts';

export type AuditRow = {
  actor: string;
  action: string;
  subject_type: string;
  subject_id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

const AUDIT_ROWS_MAX = 10_000;

// The audit log's rows about a subject (of one action, when given), oldest first, read as the API reads them (audit
// events and payments' status moves together).
export async function auditRowsOf(database: Database, filter: { subjectType: string; subjectId?: string | number; action?: string }): Promise<AuditRow[]> {
  const rows = await listAuditEvents(
    database.db,
    {
      subjectType: filter.subjectType,
      subjectId: filter.subjectId === undefined ? null : String(filter.subjectId),
      actor: null,
      action: filter.action ?? null,
      from: null,
      to: null,
      beforeId: null,
    },
    AUDIT_ROWS_MAX,
  );
  return rows.reverse().map((row) => ({
    actor: row.actor,
    action: row.action,
    subject_type: row.subjectType,
    subject_id: row.subjectId,
    before: row.before ?? null,
    after: row.after ?? null,
  }));
}
