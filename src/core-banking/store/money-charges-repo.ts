import { and, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { MoneyChargeStatus } from '../domain/core-banking-values.ts';
import type { MoneyChargePrivacy, PayerReference } from '../domain/money-charges.ts';
import type { DbOrTx, Tx } from '../../platform/database.ts';
import { moneyCharges, users } from './schema.ts';

export interface MoneyChargeRow {
  id: number;
  requesterId: number;
  payerId: number;
  amountMinor: number;
  currency: string;
  description: string;
  privacy: MoneyChargePrivacy;
  status: MoneyChargeStatus;
  resolvedAt: Date | null;
  createdAt: Date;
}

const columns = {
  id: moneyCharges.id,
  requesterId: moneyCharges.requesterId,
  payerId: moneyCharges.payerId,
  amountMinor: moneyCharges.amountMinor,
  currency: moneyCharges.currency,
  description: moneyCharges.description,
  privacy: moneyCharges.privacy,
  status: moneyCharges.status,
  resolvedAt: moneyCharges.resolvedAt,
  createdAt: moneyCharges.createdAt,
};

// The id of the active person a requester names as payer; null when there is none (a business account has no
// one who signs in to pay, so it is never a payer).
export async function findPayerId(db: DbOrTx, payer: PayerReference): Promise<number | null> {
  const match = payer.by === 'id' ? eq(users.id, payer.id) : payer.by === 'email' ? eq(users.email, payer.email) : eq(users.phone, payer.phone);
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(match, eq(users.kind, 'person'), eq(users.status, 'active')))
    .limit(1);
  return row?.id ?? null;
}

export type NewMoneyCharge = Pick<MoneyChargeRow, 'requesterId' | 'payerId' | 'amountMinor' | 'currency' | 'description' | 'privacy'>;

export async function insertMoneyCharge(db: DbOrTx, charge: NewMoneyCharge): Promise<MoneyChargeRow> {
  const [row] = await db.insert(moneyCharges).values(charge).returning(columns);
  if (!row) throw new Error('money charge insert returned nothing');
  return row;
}

export interface ChargeListQuery {
  userId: number;
  role: 'payer' | 'requester' | null; // null: both
  status: MoneyChargeStatus | null;
  limit: number;
  offset: number;
}

// The charges addressed to the user, sent by them, or both; newest first.
export async function listMoneyCharges(db: DbOrTx, query: ChargeListQuery): Promise<MoneyChargeRow[]> {
  const asPayer = eq(moneyCharges.payerId, query.userId);
  const asRequester = eq(moneyCharges.requesterId, query.userId);
  const parties: SQL | undefined = query.role === 'payer' ? asPayer : query.role === 'requester' ? asRequester : or(asPayer, asRequester);
  return db
    .select(columns)
    .from(moneyCharges)
    .where(and(parties, query.status === null ? undefined : eq(moneyCharges.status, query.status)))
    .orderBy(desc(moneyCharges.id))
    .limit(query.limit)
    .offset(query.offset);
}

// The charge, its row locked until the caller's transaction ends: every change of a charge takes this lock first.
export async function lockMoneyCharge(tx: Tx, id: number): Promise<MoneyChargeRow | null> {
  const [row] = await tx.select(columns).from(moneyCharges).where(eq(moneyCharges.id, id)).for('update').limit(1);
  return row ?? null;
}

// Ends a pending charge. The WHERE status = 'pending' makes a racing change lose cleanly (null) even without the
// lock; `privacy` replaces the charge's when given.
export async function resolveMoneyCharge(tx: Tx, id: number, to: MoneyChargeStatus, privacy: MoneyChargePrivacy | null = null): Promise<MoneyChargeRow | null> {
  const [row] = await tx
    .update(moneyCharges)
    .set({ status: to, resolvedAt: sql`now()`, updatedAt: sql`now()`, ...(privacy === null ? {} : { privacy }) })
    .where(and(eq(moneyCharges.id, id), eq(moneyCharges.status, 'pending')))
    .returning(columns);
  return row ?? null;
}
