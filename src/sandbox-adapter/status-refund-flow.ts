import { behaviourOf, newGatewayToken, type AdapterAnswerBody, type SandboxRuntime } from './runtime.ts';
import type { RefundBodyInput, StatusBodyInput } from './schemas.ts';
import { findByPaymentToken, recordRefund, type SandboxTransaction } from './transactions-repo.ts';

const REFUND_COUNT_MAX = 100;
const UNKNOWN_TRANSACTION = 'unknown transaction';
const REFUND_ATTEMPTS_MAX = 3; // a concurrent refund of the same payment may change what is refundable meanwhile

function detailsOf(transaction: SandboxTransaction, reportedStatus: string): string {
  if (transaction.declineReason !== null && reportedStatus === 'declined') return transaction.declineReason;
  if (reportedStatus === 'approved') return 'approved by the sandbox issuer';
  return behaviourOf(transaction)?.firstAnswer === 'three_d_secure' ? 'waiting for 3-D Secure' : 'waiting for the provider';
}

// Section 4 /status. The callback-only card never resolves here: its final status comes by callback alone.
export async function statusFlow(runtime: SandboxRuntime, body: StatusBodyInput): Promise<AdapterAnswerBody> {
  const transaction = await findByPaymentToken(runtime.db, body.payment.token);
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
// The refund is added in one conditional UPDATE, so refunds through several processes never exceed the amount.
export async function refundFlow(runtime: SandboxRuntime, body: RefundBodyInput): Promise<AdapterAnswerBody> {
  const requestedMinor = body.params?.amount;
  const refundToken = newGatewayToken('sbx_rf');
  for (let attempt = 1; ; attempt += 1) {
    const transaction = await findByPaymentToken(runtime.db, body.payment.token);
    const refusal = refundRefusal(transaction, requestedMinor);
    if (transaction === null || refusal !== null) {
      return { result: true, status: 'declined', gateway_token: refundToken, details: refusal ?? UNKNOWN_TRANSACTION };
    }
    const amountMinor = requestedMinor ?? transaction.amountMinor - transaction.refundedMinor;
    if (await recordRefund(runtime.db, transaction.paymentToken, amountMinor, REFUND_COUNT_MAX)) {
      return { result: true, status: 'approved', gateway_token: refundToken, amount: amountMinor, currency: transaction.currency };
    }
    if (attempt >= REFUND_ATTEMPTS_MAX) {
      return { result: true, status: 'declined', gateway_token: refundToken, details: 'the payment changed during the refund; try again' };
    }
  }
}
