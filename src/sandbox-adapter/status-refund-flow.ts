import { behaviourOf, newGatewayToken, type AdapterAnswerBody, type SandboxRuntime } from './runtime.ts';
import type { RefundBodyInput, StatusBodyInput } from './schemas.ts';
import type { SandboxTransaction } from './store.ts';

export const REFUND_COUNT_MAX = 100;
const UNKNOWN_TRANSACTION = 'unknown transaction';

function detailsOf(transaction: SandboxTransaction, reportedStatus: string): string {
  if (transaction.declineReason !== null && reportedStatus === 'declined') return transaction.declineReason;
  if (reportedStatus === 'approved') return 'approved by the sandbox issuer';
  return behaviourOf(transaction)?.firstAnswer === 'three_d_secure' ? 'waiting for 3-D Secure' : 'waiting for the provider';
}

// Section 4 /status. The callback-only card never resolves here: its final status comes by callback alone.
export function statusFlow(runtime: SandboxRuntime, body: StatusBodyInput): AdapterAnswerBody {
  const transaction = runtime.store.byPaymentToken(body.payment.token);
  const gatewayToken = body.payment.gateway_token;
  if (transaction === null) return { result: false, error: UNKNOWN_TRANSACTION };
  if (gatewayToken !== undefined && gatewayToken !== null && gatewayToken !== transaction.gatewayToken) {
    return { result: false, error: `${UNKNOWN_TRANSACTION}: gateway_token does not belong to payment.token` };
  }
  const reportedStatus = behaviourOf(transaction)?.statusCheckReports === 'pending' ? 'pending' : transaction.status;
  return {
    result: true,
    status: reportedStatus,
    details: detailsOf(transaction, reportedStatus),
    amount: transaction.amountMinor,
    currency: transaction.currency,
    gateway_token: transaction.gatewayToken,
  };
}

function refundRefusal(transaction: SandboxTransaction | null, amountMinor: number | undefined): string | null {
  if (transaction === null) return `${UNKNOWN_TRANSACTION}: payment.token is not a sandbox payment`;
  if (transaction.operation !== 'pay') return 'only payments can be refunded, not payouts';
  if (transaction.status !== 'approved') return `the payment is ${transaction.status}; only approved payments can be refunded`;
  const refundableMinor = transaction.amountMinor - transaction.refundedMinor;
  if (refundableMinor === 0) return 'the payment is already fully refunded';
  if (amountMinor !== undefined && amountMinor > refundableMinor) {
    return `refund amount ${amountMinor} exceeds the refundable amount ${refundableMinor}`;
  }
  if (transaction.refundCount >= REFUND_COUNT_MAX) return `a payment takes at most ${REFUND_COUNT_MAX} refunds`;
  return null;
}

// An approved payment is refunded at once, wholly or in part (params.amount); anything else is declined.
export function refundFlow(runtime: SandboxRuntime, body: RefundBodyInput): AdapterAnswerBody {
  const transaction = runtime.store.byPaymentToken(body.payment.token);
  const requestedMinor = body.params?.amount;
  const refusal = refundRefusal(transaction, requestedMinor);
  const refundToken = newGatewayToken('sbx_rf');
  if (transaction === null || refusal !== null) {
    return { result: true, status: 'declined', gateway_token: refundToken, details: refusal ?? UNKNOWN_TRANSACTION };
  }
  const amountMinor = requestedMinor ?? transaction.amountMinor - transaction.refundedMinor;
  transaction.refundedMinor += amountMinor;
  transaction.refundCount += 1;
  return { result: true, status: 'approved', gateway_token: refundToken, amount: amountMinor, currency: transaction.currency };
}
