import { decideTransition, NO_FINAL_CHANGE } from '../domain/payment-status.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { MerchantScope, PaymentRow } from '../store/payments-repo.ts';
import type { Db } from '../../platform/database.ts';
import { lockPayment } from '../store/processing-repo.ts';
import { changeLockedPayment } from './payment-status-change.ts';
import { getPayment } from './find-payments.ts';
import { getPaymentDetail, type PaymentDetail } from './payment-detail.ts';
import type { KeyCommit } from './idempotency-keys.ts';
import { assertNoActionInFlight } from './two-step-exchange.ts';

const MERCHANT_CANCEL_REASON = 'cancelled by the merchant';
const INIT_TO_CANCELLED = decideTransition('init', 'cancelled', NO_FINAL_CHANGE);

// POST /api/v1/payments/{token}/cancel answers the payment as GET /api/v1/payments/{token} shows it. commitKey:
// the request's Idempotency-Key, committed in the transaction that cancels the payment.
export async function cancelPaymentDetail(db: Db, scope: MerchantScope, token: string, commitKey: KeyCommit | null = null): Promise<PaymentDetail> {
  await cancelPayment(db, scope, token, commitKey);
  return getPaymentDetail(db, scope, token);
}

// A payment nobody has paid yet (init: no card data submitted, nothing sent to a gateway) ends cancelled, finally;
// its hosted page then shows it cancelled and refuses card data. No adapter is called: nothing reached one.
// Business-idempotent: a payment the merchant already cancelled is answered again. Everything else is 409
// invalid_state; a payout (its money is reserved at creation) is never cancelled here.
async function cancelPayment(db: Db, scope: MerchantScope, token: string, commitKey: KeyCommit | null): Promise<PaymentRow> {
  const found = await getPayment(db, scope, token);
  if (found.operationType !== 'pay') throw new ApiError('invalid_state', 409, `payout is ${found.status}; only a payment can be cancelled`);
  return db.transaction(async (tx) => {
    const current = await lockPayment(tx, found.id);
    if (!current) throw new Error(`payment ${found.id} vanished`);
    if (current.status === 'cancelled' && current.declineReason === MERCHANT_CANCEL_REASON) return current;
    assertNoActionInFlight(current); // its /pay, a confirm or a decline is with the adapter (issue 18): 409 payment_action_in_progress
    if (current.status !== 'init') {
      throw new ApiError('invalid_state', 409, `payment is ${current.status}; only a payment without card data (init) can be cancelled`);
    }
    // the merchant's callback goes with it, like with any final status
    const cancelled = await changeLockedPayment(tx, current, {
      transition: INIT_TO_CANCELLED,
      cause: 'api',
      changes: { declineReason: MERCHANT_CANCEL_REASON },
    });
    await commitKey?.(tx, { kind: 'payment', token: cancelled.token });
    return cancelled;
  });
}
