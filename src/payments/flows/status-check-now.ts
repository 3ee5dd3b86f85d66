import { exchangeInFlight } from '../domain/adapter-exchange.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { PaymentStatus } from '../domain/payment-status.ts';
import { findPaymentByTokenUnscoped } from '../store/processing-repo.ts';
import { gatewayOfPayment } from './gateways.ts';
import { awaitsStatusCheck } from './payout-status.ts';
import type { ProcessingDeps } from './process-payment.ts';
import { lookUpStatus } from './status-lookup.ts';
import { actionInProgress } from './two-step-exchange.ts';

export interface StatusCheckNow {
  paymentId: number;
  operationType: 'pay' | 'payout';
  before: PaymentStatus;
  after: PaymentStatus;
  changed: boolean; // the answer moved the payment
  failedLookup: string | null; // why the lookup failed (the payment keeps its status), else null
}

// An operator's "check the status now" of any merchant's payment: the status checker's own lookup (lookUpStatus, the
// one workers/status-checker.ts runs on its schedule), now, under the checker's rules: only a payment it would ask
// about (awaitsStatusCheck), never while an exchange of the payment is in flight, and only through its gateway.
// The scheduled checks go on as before; one that comes due after a final answer finds nothing to ask.
export async function checkPaymentStatusNow(deps: ProcessingDeps, token: string): Promise<StatusCheckNow> {
  const payment = await findPaymentByTokenUnscoped(deps.context.database.db, token);
  if (!payment) throw new ApiError('not_found', 404, 'payment not found');
  if (!awaitsStatusCheck(payment)) {
    throw new ApiError('invalid_state', 409, `the payment is ${payment.status}: the status checker asks only about a payment still waiting for its status`);
  }
  if (exchangeInFlight(payment, new Date())) throw actionInProgress(payment);
  const gateway = await gatewayOfPayment(deps.context, payment);
  if (!gateway) throw new ApiError('no_gateway', 409, 'the payment has no gateway to ask');
  const { reading, applied } = await lookUpStatus(deps, payment, gateway, 'checked now by an operator');
  return {
    paymentId: payment.id,
    operationType: payment.operationType,
    before: payment.status,
    after: applied.payment.status,
    changed: applied.changed,
    failedLookup: reading.kind === 'failed_lookup' ? reading.reason : null,
  };
}
