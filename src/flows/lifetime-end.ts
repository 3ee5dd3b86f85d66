import type { FastifyBaseLogger } from 'fastify';
import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { exchangeInFlight } from '../domain/adapter-exchange.ts';
import { decideTransition, NO_FINAL_CHANGE } from '../domain/payment-status.ts';
import { interpretStatusAnswer } from '../domain/status-answer.ts';
import type { Db } from '../store/database.ts';
import { findPaymentById, lockPayment, transitionPayment } from '../store/processing-repo.ts';
import { buildStatusRequest } from './adapter-requests.ts';
import { queueFinalWork } from './apply-gateway-outcome.ts';
import { gatewayOfPayment } from './gateways.ts';
import { applyStatusAnswer } from './payout-status.ts';
import type { ProcessingDeps } from './process-payment.ts';

const INIT_TO_EXPIRED = decideTransition('init', 'expired', NO_FINAL_CHANGE);
const PENDING_TO_EXPIRED = decideTransition('pending', 'expired', NO_FINAL_CHANGE);

// spec 2.1 expires_at is a payment's lifetime. An init payment past it expires. A pending one (its request reached
// the adapter, e.g. a bank_account Host-to-Host payment waiting on the customer) is asked for its status one last
// time first: an approval or a decline it reports stands; otherwise (still pending, or a failed lookup) it expires.
// False: it was not expired now (a report finalized it, an exchange is still in flight, or it changed meanwhile).
export async function endLifetime(deps: ProcessingDeps, paymentId: number, log?: FastifyBaseLogger): Promise<boolean> {
  const db = deps.context.database.db;
  const payment = await findPaymentById(db, paymentId);
  if (!payment || !isOverdue(payment, new Date())) return false;
  if (payment.status === 'pending') {
    if (exchangeInFlight(payment, new Date())) return false; // its answer comes first; the next pass asks again
    const applied = await lastStatusCheck(deps, payment, log);
    if (applied !== null && applied !== 'pending') return false;
  }
  return expireOverdue(db, paymentId);
}

function isOverdue(payment: { status: string; expiresAt: Date | null; operationType: string }, now: Date): boolean {
  if (payment.expiresAt === null || payment.expiresAt > now) return false;
  return payment.status === 'init' || (payment.status === 'pending' && payment.operationType === 'pay');
}

// The status the last check left the payment in; null when it has no gateway to ask.
async function lastStatusCheck(deps: ProcessingDeps, payment: NonNullable<Awaited<ReturnType<typeof findPaymentById>>>, log?: FastifyBaseLogger) {
  const gateway = await gatewayOfPayment(deps.context, payment);
  if (!gateway) return null;
  const request = buildStatusRequest(payment, gateway.settings);
  const timeoutMs = methodSettingsOf(gateway.settings, 'status').responseTimeoutS * 1000;
  const call = await deps.adapterClient.call(gateway.settings, 'status', request, timeoutMs);
  const reading = interpretStatusAnswer(call.answer);
  const response = call.answer.kind === 'response' ? call.answer.body : call.answer;
  const ownLog = {
    kind: 'status',
    request: { url: call.url, body: request },
    status: 200,
    response,
    duration: call.durationS,
    note: 'last check before expiry',
  };
  const applied = await applyStatusAnswer(deps.context.database.db, payment, reading, {
    kind: 'status',
    settings: gateway.settings,
    extraLogs: [ownLog],
    authorizationHoldHours: deps.context.config.authorizationHoldHours,
    rawAnswer: response,
  });
  if (reading.kind === 'failed_lookup') log?.warn({ paymentToken: payment.token, reason: reading.reason }, 'last status lookup before expiry failed');
  return applied.payment.status;
}

async function expireOverdue(db: Db, paymentId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    // it may have received its card data, an answer, or a new lifetime since it was found
    if (!payment || !isOverdue(payment, new Date())) return false;
    const transition = payment.status === 'init' ? INIT_TO_EXPIRED : PENDING_TO_EXPIRED;
    if (!(await transitionPayment(tx, paymentId, transition))) throw new Error(`payment ${paymentId} left ${payment.status} while its row was locked`);
    await queueFinalWork(tx, paymentId);
    return true;
  });
}
