import type { Db, DbOrTx } from '../../platform/database.ts';
import { currentAuditContext, type AuditActor } from '../../platform/lib/audit-context.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { type AuditEventFilter, type AuditEventRow, insertAuditEvent, listAuditEvents } from '../store/audit-repo.ts';

const AUDIT_PAGE_SIZE_MAX = 500;
const SUBJECT_PATTERN = /^([a-z_]{1,40})(?::([A-Za-z0-9_:.-]{1,80}))?$/;

export interface AuditQuery {
  subject?: string | undefined; // `merchant` or `merchant:12`
  actor?: string | undefined;
  action?: string | undefined;
  from?: string | undefined; // ISO 8601
  to?: string | undefined;
  cursor?: string | undefined; // the id of the last event of the page before
  limit?: number | undefined;
}

export interface AuditPage {
  events: AuditEventRow[];
  nextCursor: string | null;
}

// An action that changes no audited row (a sign-in, a ledger check run, an adapter check, an export, a resend)
// recorded by its caller, in its transaction when it has one. The actor is the request's unless given.
export async function recordAuditEvent(
  db: DbOrTx,
  event: { action: string; subjectType: string; subjectId: string; after?: Record<string, unknown> | null; actor?: AuditActor },
): Promise<void> {
  const context = currentAuditContext();
  const actor = event.actor ?? context?.actor;
  if (!actor) throw new Error(`audit event ${event.action} without an actor`);
  await insertAuditEvent(db, {
    actor,
    action: event.action,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    before: null,
    after: event.after ?? null,
    requestId: context?.requestId ?? null,
    ipAddress: context?.ipAddress ?? null,
  });
}

export async function findAuditEvents(db: Db, query: AuditQuery): Promise<AuditPage> {
  const limit = Math.min(query.limit ?? 50, AUDIT_PAGE_SIZE_MAX);
  const events = await listAuditEvents(db, auditFilterOf(query), limit + 1);
  const page = events.slice(0, limit);
  const last = page.at(-1);
  return { events: page, nextCursor: events.length > limit && last ? String(last.id) : null };
}

const invalid = (field: string, message: string) => new ApiError('invalid_request', 400, message, [{ code: 'invalid', field, message }]);

function auditFilterOf(query: AuditQuery): AuditEventFilter {
  const subject = query.subject ? SUBJECT_PATTERN.exec(query.subject) : null;
  if (query.subject && !subject) throw invalid('subject', 'subject is a type (merchant) or a type and an id (merchant:12)');
  const cursor = query.cursor ? Number(query.cursor) : null;
  if (cursor !== null && !(Number.isSafeInteger(cursor) && cursor > 0)) throw invalid('cursor', 'cursor is the nextCursor of the page before');
  return {
    subjectType: subject?.[1] ?? null,
    subjectId: subject?.[2] ?? null,
    actor: query.actor || null,
    action: query.action || null,
    from: dateOf(query.from, 'from'),
    to: dateOf(query.to, 'to'),
    beforeId: cursor,
  };
}

function dateOf(text: string | undefined, field: string): Date | null {
  if (!text) return null;
  const date = new Date(text);
  if (Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(text))
    throw invalid(field, `${field} is a date or time in ISO 8601 (2026-11-28 or 2026-11-28T10:00:00Z)`);
  return date;
}

const EXPORT_PAGE_ROWS = 500;
const AUDIT_EXPORT_ROWS_MAX = 1_000_000;

// Every event the query matches, one keyset page at a time (an export holds one page in memory); the first page is
// read by the caller before it answers, so a refused filter is an error, not a broken download.
export async function* walkAuditEvents(db: Db, query: Omit<AuditQuery, 'cursor' | 'limit'>): AsyncGenerator<AuditEventRow[]> {
  let cursor: string | null = null;
  let rows = 0;
  do {
    const page: AuditPage = await findAuditEvents(db, { ...query, ...(cursor === null ? {} : { cursor }), limit: EXPORT_PAGE_ROWS });
    if (page.events.length > 0) yield page.events;
    rows += page.events.length;
    cursor = page.nextCursor;
  } while (cursor !== null && rows < AUDIT_EXPORT_ROWS_MAX);
}
