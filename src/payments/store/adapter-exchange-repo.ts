import { and, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { ExchangeKind } from '../domain/adapter-exchange.ts';
import type { PaymentStatus } from '../domain/payment-status.ts';
import type { DbOrTx } from '../../platform/database.ts';
import type { PaymentRow } from './payments-repo.ts';
import { outbox, payments, refunds } from './schema.ts';

// The "adapter exchange in flight" markers (domain/adapter-exchange.ts). Each is taken by one conditional UPDATE:
// only while the row has the status the exchange starts from and no live lease, so of two racing requests one
// takes it and the other finds it taken. A marker is released by the one who holds it (its lease end is its
// identity), and a lapsed one counts as released.

export interface PaymentExchange {
  paymentId: number;
  kind: ExchangeKind;
  until: Date;
}

const freeAt = (until: typeof payments.exchangeUntil | typeof refunds.exchangeUntil, now: Date) => or(isNull(until), lte(until, now));

// The payment with the marker taken, or null: it has another status, or another exchange holds it.
export async function holdPaymentExchange(
  db: DbOrTx,
  exchange: PaymentExchange,
  options: { from: readonly PaymentStatus[]; now: Date; captureMinor?: number; authorizedBy?: Date },
): Promise<PaymentRow | null> {
  const [row] = await db
    .update(payments)
    .set({ exchangeKind: exchange.kind, exchangeUntil: exchange.until, exchangeCaptureMinor: options.captureMinor ?? null })
    .where(
      and(
        eq(payments.id, exchange.paymentId),
        inArray(payments.status, [...options.from]),
        freeAt(payments.exchangeUntil, options.now),
        options.authorizedBy === undefined ? undefined : lte(payments.authorizedUntil, options.authorizedBy),
      ),
    )
    .returning();
  return row ?? null;
}

// Clears the marker this exchange holds; nothing when another exchange took over after its lease lapsed.
export async function releasePaymentExchange(db: DbOrTx, exchange: PaymentExchange): Promise<void> {
  await db
    .update(payments)
    .set({ exchangeKind: null, exchangeUntil: null, exchangeCaptureMinor: null })
    .where(and(eq(payments.id, exchange.paymentId), eq(payments.exchangeKind, exchange.kind), eq(payments.exchangeUntil, exchange.until)));
}

// The marker as a columns change, for a transaction that moves the payment and takes its marker in one write.
export function paymentExchangeColumns(exchange: Pick<PaymentExchange, 'kind' | 'until'>): Pick<PaymentRow, 'exchangeKind' | 'exchangeUntil'> {
  return { exchangeKind: exchange.kind, exchangeUntil: exchange.until };
}

export async function releaseRefundExchange(db: DbOrTx, refundId: number, until: Date): Promise<void> {
  await db
    .update(refunds)
    .set({ exchangeUntil: null })
    .where(and(eq(refunds.id, refundId), eq(refunds.exchangeUntil, until)));
}

export async function findRefundExchangeUntil(db: DbOrTx, refundId: number, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ exchangeUntil: refunds.exchangeUntil })
    .from(refunds)
    .where(and(eq(refunds.id, refundId), eq(refunds.status, 'pending'), gt(refunds.exchangeUntil, now)));
  return row?.exchangeUntil ?? null;
}

// A claimed check put back until `dueAt` as if it had not been claimed: its attempt is not counted.
export async function deferClaimedWork(db: DbOrTx, outboxId: number, dueAt: Date): Promise<void> {
  await db
    .update(outbox)
    .set({ dueAt, lockedUntil: null, attempts: sql`greatest(${outbox.attempts} - 1, 0)` })
    .where(and(eq(outbox.id, outboxId), isNull(outbox.doneAt)));
}
