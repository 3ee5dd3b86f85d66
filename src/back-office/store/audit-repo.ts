import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { paymentStatusChanges, payments } from '../../payments/store/schema.ts';
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

// The audit log is two tables read as one: audit_events, and payment_status_changes for the status moves of payments
// and payouts (migration 0018: one record of a move, not a copy). Both take their ids from one sequence, so the log
// is newest first by id across both. Each filter is pushed into each table as a condition one of its indexes serves,
// and a table no event of the filter can be in is not read.
export async function listAuditEvents(db: DbOrTx, filter: AuditEventFilter, limit: number): Promise<AuditEventRow[]> {
  const events = db
    .select()
    .from(auditEvents)
    .where(and(...eventConditions(filter)))
    .orderBy(desc(auditEvents.id))
    .limit(limit);
  const moves = statusMoveConditions(filter);
  if (moves === null) return events;
  const [fromEvents, fromMoves] = await Promise.all([events, listStatusMoves(db, moves, limit)]);
  return [...fromEvents, ...fromMoves].sort((left, right) => right.id - left.id).slice(0, limit);
}

function eventConditions(filter: AuditEventFilter): (SQL | undefined)[] {
  return [
    filter.subjectType === null ? undefined : eq(auditEvents.subjectType, filter.subjectType),
    filter.subjectId === null ? undefined : eq(auditEvents.subjectId, filter.subjectId),
    filter.actor === null ? undefined : eq(auditEvents.actor, filter.actor),
    filter.action === null ? undefined : eq(auditEvents.action, filter.action),
    filter.from === null ? undefined : gte(auditEvents.occurredAt, filter.from),
    filter.to === null ? undefined : lt(auditEvents.occurredAt, filter.to),
    filter.beforeId === null ? undefined : lt(auditEvents.id, filter.beforeId),
  ];
}

const MOVE_SUBJECTS = ['payment', 'payout'] as const;
const MOVE_ACTIONS = ['created', 'status_changed'] as const;
const PAYMENT_ID_PATTERN = /^[1-9][0-9]{0,17}$/;
const moves = paymentStatusChanges;
const kindOf = sql<string>`case when ${payments.operationType} = 'payout' then 'payout' else 'payment' end`;
const derivedAction = sql<string>`${kindOf} || case when ${moves.fromStatus} is null then '.created' else '.status_changed' end`;

// The conditions on payment_status_changes (joined to its payment) for the filter, or null when no status move can
// match it (another subject, a subject id that is no payment id, an action a move never has).
function statusMoveConditions(filter: AuditEventFilter): SQL[] | null {
  const conditions: SQL[] = [eq(moves.inAuditLog, true)];
  if (filter.subjectType !== null) {
    if (!(MOVE_SUBJECTS as readonly string[]).includes(filter.subjectType)) return null;
    conditions.push(filter.subjectType === 'payout' ? sql`${payments.operationType} = 'payout'` : sql`${payments.operationType} <> 'payout'`);
  }
  if (filter.subjectId !== null) {
    if (!PAYMENT_ID_PATTERN.test(filter.subjectId)) return null;
    conditions.push(eq(moves.paymentId, Number(filter.subjectId)));
  }
  if (filter.actor !== null) conditions.push(actorCondition(filter.actor));
  if (filter.action !== null) {
    const action = actionCondition(filter.action);
    if (action === null) return null;
    conditions.push(action);
  }
  if (filter.from !== null) conditions.push(gte(moves.createdAt, filter.from));
  if (filter.to !== null) conditions.push(lt(moves.createdAt, filter.to));
  if (filter.beforeId !== null) conditions.push(lt(moves.id, filter.beforeId));
  return conditions;
}

// The engine's moves carry no actor and are shown as `system:<cause>`; a person's are in the partial index, whose
// predicate is repeated so the planner may use it.
function actorCondition(actor: string): SQL {
  const named = actor.startsWith('key:') ? eq(moves.actor, actor) : sql`(${moves.actor} = ${actor} and ${moves.actor} not like 'key:%')`;
  if (!actor.startsWith('system:')) return named;
  return sql`(${named} or (${moves.actor} is null and ${moves.cause} = ${actor.slice('system:'.length)}))`;
}

// A move's action is the one its person named (indexed), else `<payment|payout>.<created|status_changed>`.
function actionCondition(action: string): SQL | null {
  const named = sql`(${moves.action} = ${action} and ${moves.action} is not null)`;
  const [kind, verb] = action.split('.');
  const derivable = (MOVE_SUBJECTS as readonly string[]).includes(kind ?? '') && (MOVE_ACTIONS as readonly string[]).includes(verb ?? '');
  if (!derivable) return named;
  return sql`(${named} or (${moves.action} is null and ${derivedAction} = ${action}))`;
}

async function listStatusMoves(db: DbOrTx, conditions: SQL[], limit: number): Promise<AuditEventRow[]> {
  const rows = await db
    .select({
      id: moves.id,
      occurredAt: moves.createdAt,
      actor: sql<string>`coalesce(${moves.actor}, 'system:' || ${moves.cause})`,
      action: sql<string>`coalesce(${moves.action}, ${derivedAction})`,
      subjectType: kindOf,
      subjectId: sql<string>`${moves.paymentId}::text`,
      fromStatus: moves.fromStatus,
      toStatus: moves.toStatus,
      cause: moves.cause,
      requestId: moves.requestId,
      ipAddress: moves.ipAddress,
    })
    .from(moves)
    .innerJoin(payments, eq(payments.id, moves.paymentId))
    .where(and(...conditions))
    .orderBy(desc(moves.id))
    .limit(limit);
  return rows.map(({ fromStatus, toStatus, cause, ...row }) => ({
    ...row,
    before: fromStatus === null ? null : { status: fromStatus },
    after: { status: toStatus, cause },
  }));
}
