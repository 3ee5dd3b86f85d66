import { queueFinalWork } from '../flows/apply-gateway-outcome.ts';
import { decideTransition, NO_FINAL_CHANGE } from '../domain/payment-status.ts';
import type { Db } from '../store/database.ts';
import { findExpiredPaymentIds, lockPayment, transitionPayment } from '../store/processing-repo.ts';

const EXPIRY_BATCH_MAX = 100;
const EXPIRY_BATCHES_PER_PASS_MAX = 20; // a larger backlog continues at the next pass
const INIT_TO_EXPIRED = decideTransition('init', 'expired', NO_FINAL_CHANGE);

// Every `init` payment whose lifetime is over ends `expired` through the state machine; the merchant is told.
export async function expireDuePayments(db: Db): Promise<number> {
  let expiredCount = 0;
  for (let batch = 0; batch < EXPIRY_BATCHES_PER_PASS_MAX; batch += 1) {
    const due = await findExpiredPaymentIds(db, EXPIRY_BATCH_MAX);
    for (const paymentId of due) if (await expirePayment(db, paymentId)) expiredCount += 1;
    if (due.length < EXPIRY_BATCH_MAX) break;
  }
  return expiredCount;
}

async function expirePayment(db: Db, paymentId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const payment = await lockPayment(tx, paymentId);
    // it may have received its card data, or a new lifetime, since it was found
    if (payment?.status !== 'init' || !payment.expiresAt || payment.expiresAt > new Date()) return false;
    if (!(await transitionPayment(tx, paymentId, INIT_TO_EXPIRED))) throw new Error(`payment ${paymentId} left init while its row was locked`);
    await queueFinalWork(tx, paymentId);
    return true;
  });
}
