import type { FastifyBaseLogger } from 'fastify';
import { exchangeInFlight } from '../domain/adapter-exchange.ts';
import { decideTransition, NO_FINAL_CHANGE } from '../domain/payment-status.ts';
import type { Db } from '../../platform/database.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { findPaymentById, lockPayment } from '../store/processing-repo.ts';
import { changeLockedPayment } from './payment-status-change.ts';
import { gatewayOfPayment } from './gateways.ts';
import type { ProcessingDeps } from './process-payment.ts';
import { lookUpStatus } from './status-lookup.ts';

const TO_EXPIRED = {
  init: decideTransition('init', 'expired', NO_FINAL_CHANGE),
  pending: decideTransition('pending', 'expired', NO_FINAL_CHANGE),
  processing: decideTransition('processing', 'expired', NO_FINAL_CHANGE),
} as const;

type OpenStatus = keyof typeof TO_EXPIRED;
type LifetimeFields = { status: string; expiresAt: Date | null; operationType: string };

// spec 2.1 expires_at is a payment's lifetime; a payout's is PAYRAIL_PAYOUT_LIFETIME_MINUTES from its creation. An
// init payment past it expires (no card data has left Payrail). Anything whose request may have reached the adapter
// (a pending payment, e.g. a bank_account Host-to-Host one waiting on the customer; a payout in init, pending or
// processing) is asked for its status one last time first: an approval or a decline it reports stands; otherwise
// (still open, or a failed lookup) it expires, a payout's reservation released, and a later report of the provider
// is a conflict for an operator (flows/payment-conflicts.ts), never silently applied.
// False: it was not expired now (a report finalized it, an exchange is still in flight, or it changed meanwhile).
export async function endLifetime(deps: ProcessingDeps, paymentId: number, log?: FastifyBaseLogger): Promise<boolean> {
  const db = deps.context.database.db;
  const payment = await findPaymentById(db, paymentId);
  if (!payment || !isOverdue(payment, new Date())) return false;
  if (mayHaveReachedAdapter(payment)) {
    if (exchangeInFlight(payment, new Date())) return false; // its answer comes first; the next pass asks again
    const applied = await lastStatusCheck(deps, payment, log);
    if (applied !== null && !isOpen(applied)) return false;
  }
  return expireOverdue(db, paymentId);
}

function isOpen(status: string): status is OpenStatus {
  return status === 'init' || status === 'pending' || status === 'processing';
}

function mayHaveReachedAdapter(payment: LifetimeFields): boolean {
  return payment.operationType === 'payout' || payment.status !== 'init';
}

function isOverdue(payment: LifetimeFields, now: Date): boolean {
  if (payment.expiresAt === null || payment.expiresAt > now) return false;
  if (payment.operationType === 'payout') return isOpen(payment.status);
  return payment.status === 'init' || (payment.status === 'pending' && payment.operationType === 'pay');
}

// The status the last check left the payment in; null when it has no gateway to ask.
async function lastStatusCheck(deps: ProcessingDeps, payment: PaymentRow, log?: FastifyBaseLogger): Promise<string | null> {
  const gateway = await gatewayOfPayment(deps.context, payment);
  if (!gateway) return null;
  const { reading, applied } = await lookUpStatus(deps, payment, gateway, 'last check before expiry');
  if (reading.kind === 'failed_lookup') log?.warn({ paymentToken: payment.token, reason: reading.reason }, 'last status lookup before expiry failed');
  return applied.payment.status;
}

async function expireOverdue(db: Db, paymentId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    // it may have received its card data, an answer, or a new lifetime since it was found
    if (!payment || !isOverdue(payment, new Date()) || !isOpen(payment.status)) return false;
    await changeLockedPayment(tx, payment, { transition: TO_EXPIRED[payment.status], cause: 'expiry' });
    return true;
  });
}
