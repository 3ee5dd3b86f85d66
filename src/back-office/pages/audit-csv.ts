import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../platform/database.ts';
import { csvLine } from '../domain/csv.ts';
import { type AuditQuery, walkAuditEvents } from '../flows/audit-log.ts';
import type { AuditEventRow } from '../store/audit-repo.ts';

const HEADER = ['id', 'occurred_at', 'actor', 'action', 'subject_type', 'subject_id', 'before', 'after', 'request_id', 'ip_address'];

// The audit log as CSV (the admin API's audit-events.csv and the console's export): streamed page by page, the
// changed fields as JSON text, every text field neutralised against spreadsheet formulas (domain/csv.ts).
export async function sendAuditCsv(reply: FastifyReply, db: Db, query: Omit<AuditQuery, 'cursor' | 'limit'>): Promise<FastifyReply> {
  const pages = walkAuditEvents(db, query);
  const first = await pages.next();
  const lines = async function* (): AsyncGenerator<string> {
    yield csvLine(HEADER);
    if (first.done) return;
    yield first.value.map(lineOf).join('');
    for await (const page of pages) yield page.map(lineOf).join('');
  };
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', 'attachment; filename="payrail-audit-events.csv"')
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(Readable.from(lines()));
}

function lineOf(event: AuditEventRow): string {
  return csvLine([
    event.id,
    event.occurredAt.toISOString(),
    event.actor,
    event.action,
    event.subjectType,
    event.subjectId,
    event.before === null ? null : JSON.stringify(event.before),
    event.after === null ? null : JSON.stringify(event.after),
    event.requestId,
    event.ipAddress,
  ]);
}
