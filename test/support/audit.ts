import { sql } from 'drizzle-orm';
import type { Database } from '../../src/platform/database.ts';

// A `type`, not an interface: db.execute<Row> wants a row type an index signature accepts.
export type AuditRow = {
  actor: string;
  action: string;
  subject_type: string;
  subject_id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

// The audit log's rows about a subject (of one action, when given), oldest first.
export async function auditRowsOf(database: Database, filter: { subjectType: string; subjectId?: string | number; action?: string }): Promise<AuditRow[]> {
  const subjectId = filter.subjectId === undefined ? sql`` : sql` and subject_id = ${String(filter.subjectId)}`;
  const action = filter.action === undefined ? sql`` : sql` and action = ${filter.action}`;
  const result = await database.db.execute<AuditRow>(
    sql`select actor, action, subject_type, subject_id, before, after from audit_events where subject_type = ${filter.subjectType}${subjectId}${action} order by id`,
  );
  return result.rows;
}
