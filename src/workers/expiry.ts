import { queueFinalWork } from '../flows/apply-gateway-outcome.ts';
import type { Db } from '../store/database.ts';
import { findExpiredPaymentIds, lockPayment, updatePayment } from '../store/processing-repo.ts';

const EXPIRY_BATCH_MAX = 100;

// A payment that never received card data ends as `expired` when its lifetime is over; the merchant is told.
export async function expireDuePayments(db: Db): Promise<number> {
  let expiredCount = 0;
  for (const paymentId of await findExpiredPaymentIds(db, EXPIRY_BATCH_MAX)) {
    const expired = await db.transaction(async (tx) => {
      const payment = await lockPayment(tx, paymentId);
      if (!payment || payment.status !== 'init' || !payment.expiresAt || payment.expiresAt > new Date()) return false;
      await updatePayment(tx, paymentId, { status: 'expired', finalizedAt: new Date() });
      await queueFinalWork(tx as unknown as Db, paymentId);
      return true;
    });
    if (expired) expiredCount += 1;
  }
  return expiredCount;
}
