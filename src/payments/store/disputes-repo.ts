import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { COUNTED_DISPUTE_STATUSES, type DisputeStatus, type DisputeTransition } from '../domain/dispute-status.ts';
import type { Db } from '../../platform/database.ts';
import type { MerchantScope, PaymentRow } from './payments-repo.ts';
import type { DbOrTx, Tx } from '../../platform/database.ts';
import { disputeDocuments, disputes, payments } from './schema.ts';
import { tokenInScope } from './scoped-token.ts';

export type DisputeRow = typeof disputes.$inferSelect;
export type DisputeDocumentRow = typeof disputeDocuments.$inferSelect;

// A dispute with what every answer about it shows: its payment's token and its documents.
export interface DisputeRecord extends DisputeRow {
  paymentToken: string;
  documents: DisputeDocumentRow[];
}

export interface NewDispute {
  token: string;
  paymentId: number;
  merchantId: number;
  environment: MerchantScope['environment'];
  amountMinor: number;
  currency: string;
  description: string;
}

export interface NewDisputeDocument {
  fileName: string;
  storedName: string;
  mediaType: string;
  sizeBytes: number;
  sha256: string;
}

// The merchant's payment, locked: disputes of one payment are decided one at a time.
export async function lockScopedPayment(tx: Tx, scope: MerchantScope, token: string): Promise<PaymentRow | null> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(tokenInScope(payments, token, scope))
    .for('update');
  return row ?? null;
}

// What the payment's disputes hold or lost (domain/dispute-status.ts: COUNTED_DISPUTE_STATUSES).
export async function sumCountedDisputesMinor(tx: DbOrTx, paymentId: number): Promise<number> {
  const [row] = await tx
    .select({ total: sql<string | null>`sum(${disputes.amountMinor})` })
    .from(disputes)
    .where(and(eq(disputes.paymentId, paymentId), inArray(disputes.status, [...COUNTED_DISPUTE_STATUSES])));
  return Number(row?.total ?? 0);
}

// The bytes of evidence a merchant keeps in one environment, all disputes together.
export async function sumEvidenceBytes(db: DbOrTx, scope: MerchantScope): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | null>`sum(${disputeDocuments.sizeBytes})` })
    .from(disputeDocuments)
    .innerJoin(disputes, eq(disputes.id, disputeDocuments.disputeId))
    .where(and(eq(disputes.merchantId, scope.merchantId), eq(disputes.environment, scope.environment)));
  return Number(row?.total ?? 0);
}

// Serialises evidence uploads of one merchant's environment until the transaction ends, so two uploads cannot both
// pass the quota on the same free space.
export async function lockEvidenceQuota(tx: Tx, scope: MerchantScope): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payrail evidence ${scope.merchantId} ${scope.environment}`}, 0))`);
}

export async function insertDispute(tx: Tx, dispute: NewDispute, documents: readonly NewDisputeDocument[]): Promise<Omit<DisputeRecord, 'paymentToken'>> {
  const [row] = await tx
    .insert(disputes)
    .values({ ...dispute, status: 'open' })
    .returning();
  if (!row) throw new Error('dispute insert returned no row');
  const stored =
    documents.length === 0
      ? []
      : await tx
          .insert(disputeDocuments)
          .values(documents.map((document) => ({ ...document, disputeId: row.id })))
          .returning();
  return { ...row, documents: stored.sort((left, right) => left.id - right.id) };
}

// The merchant's dispute, locked: evidence added to it waits for (and is refused after) a resolution.
export async function lockScopedDispute(tx: Tx, scope: MerchantScope, token: string): Promise<DisputeRow | null> {
  const [row] = await tx
    .select()
    .from(disputes)
    .where(tokenInScope(disputes, token, scope))
    .for('update');
  return row ?? null;
}

export async function countDisputeDocuments(tx: DbOrTx, disputeId: number): Promise<number> {
  const [row] = await tx.select({ total: count() }).from(disputeDocuments).where(eq(disputeDocuments.disputeId, disputeId));
  return row?.total ?? 0;
}

export async function insertDisputeDocuments(tx: Tx, disputeId: number, documents: readonly NewDisputeDocument[]): Promise<void> {
  if (documents.length === 0) return;
  await tx.insert(disputeDocuments).values(documents.map((document) => ({ ...document, disputeId })));
}

export async function lockDisputeByToken(tx: Tx, token: string): Promise<DisputeRow | null> {
  const [row] = await tx.select().from(disputes).where(eq(disputes.token, token)).for('update');
  return row ?? null;
}

// Applies a decided move while the dispute still has the status it was decided from; null when it no longer has.
export async function writeDisputeTransition(tx: Tx, disputeId: number, transition: DisputeTransition, note: string | null): Promise<DisputeRow | null> {
  const now = new Date();
  const [row] = await tx
    .update(disputes)
    .set({
      status: transition.to,
      updatedAt: now,
      ...(transition.final ? { resolvedAt: now } : {}),
      ...(note === null ? {} : { resolutionNote: note }),
    })
    .where(and(eq(disputes.id, disputeId), eq(disputes.status, transition.from)))
    .returning();
  return row ?? null;
}

// Whose disputes a read may see: one merchant's environment (the merchant API) or any (operators).
export type DisputeVisibility = { scope: MerchantScope } | { operator: true };

function visibleTo(visibility: DisputeVisibility): SQL | undefined {
  if ('operator' in visibility) return undefined;
  return and(eq(disputes.merchantId, visibility.scope.merchantId), eq(disputes.environment, visibility.scope.environment));
}

export async function findDispute(db: DbOrTx, visibility: DisputeVisibility, token: string): Promise<DisputeRecord | null> {
  const [row] = await db
    .select({ dispute: disputes, paymentToken: payments.token })
    .from(disputes)
    .innerJoin(payments, eq(payments.id, disputes.paymentId))
    .where(and(eq(disputes.token, token), visibleTo(visibility)));
  if (!row) return null;
  const [withDocuments] = await attachDocuments(db, [{ ...row.dispute, paymentToken: row.paymentToken }]);
  return withDocuments ?? null;
}

export async function findDisputeDocument(db: Db, visibility: DisputeVisibility, token: string, documentId: number): Promise<DisputeDocumentRow | null> {
  const [row] = await db
    .select({ document: disputeDocuments })
    .from(disputeDocuments)
    .innerJoin(disputes, eq(disputes.id, disputeDocuments.disputeId))
    .where(and(eq(disputeDocuments.id, documentId), eq(disputes.token, token), visibleTo(visibility)));
  return row?.document ?? null;
}

// A place in the list's order (created_at DESC, id DESC); createdAt is ISO 8601 UTC with microseconds, as stored.
interface DisputeListPosition {
  createdAt: string;
  id: number;
}

export interface DisputeListFilter {
  merchantId: number | null;
  environment: MerchantScope['environment'] | null;
  statuses: readonly DisputeStatus[] | null; // any of these; null: every status
  after: DisputeListPosition | null;
  limit: number;
}

export interface DisputeListPage {
  rows: DisputeRecord[];
  next: DisputeListPosition | null; // the last row's place when more rows follow
}

// to_char keeps the microseconds a JavaScript Date would drop, so a cursor never skips a row.
const positionText = sql<string>`to_char(${disputes.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

// Newest first, keyset-paged: one row more than shown is read to know whether another page follows.
export async function listDisputes(db: Db, filter: DisputeListFilter): Promise<DisputeListPage> {
  const conditions: SQL[] = [];
  if (filter.merchantId !== null) conditions.push(eq(disputes.merchantId, filter.merchantId));
  if (filter.environment !== null) conditions.push(eq(disputes.environment, filter.environment));
  if (filter.statuses !== null) conditions.push(inArray(disputes.status, [...filter.statuses]));
  if (filter.after) conditions.push(sql`(${disputes.createdAt}, ${disputes.id}) < (${filter.after.createdAt}::timestamptz, ${filter.after.id})`);
  const found = await db
    .select({ dispute: disputes, paymentToken: payments.token, position: positionText })
    .from(disputes)
    .innerJoin(payments, eq(payments.id, disputes.paymentId))
    .where(and(...conditions))
    .orderBy(desc(disputes.createdAt), desc(disputes.id))
    .limit(filter.limit + 1);
  const shown = found.slice(0, filter.limit);
  const last = shown.at(-1);
  const next = found.length > filter.limit && last ? { createdAt: last.position, id: last.dispute.id } : null;
  const rows = await attachDocuments(
    db,
    shown.map((row) => ({ ...row.dispute, paymentToken: row.paymentToken })),
  );
  return { rows, next };
}

async function attachDocuments(db: DbOrTx, rows: (DisputeRow & { paymentToken: string })[]): Promise<DisputeRecord[]> {
  if (rows.length === 0) return [];
  const documents = await db
    .select()
    .from(disputeDocuments)
    .where(
      inArray(
        disputeDocuments.disputeId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(disputeDocuments.id));
  return rows.map((row) => ({ ...row, documents: documents.filter((document) => document.disputeId === row.id) }));
}
