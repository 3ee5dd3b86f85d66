import { eq } from 'drizzle-orm';
import type { Db } from '../platform/database.ts';
import { sandboxRefunds } from './store-schema.ts';
import { behaviourOf, newGatewayToken, type AdapterAnswerBody, type SandboxRuntime } from './runtime.ts';
import type { RefundBodyInput, StatusBodyInput } from './schemas.ts';
import { findByPaymentToken, recordRefund, type SandboxTransaction } from './transactions-repo.ts';
import { recordApprovedRefund } from './refund-record-repo.ts';

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
  if (transaction.confirmation === 'awaiting') return 'the authorization is not captured: confirm it (confirm_request) or void it (decline_request)';
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
  const requestedMinor = body.refund?.amount ?? body.params?.amount;
  if (body.refund?.token !== undefined) return idempotentRefund(runtime.db, body.payment.token, body.refund.token, requestedMinor);
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

type RefundRecord = Pick<
  typeof sandboxRefunds.$inferSelect,
  'paymentToken' | 'gatewayToken' | 'requestedMinor' | 'amountMinor' | 'currency' | 'status' | 'declineReason'
>;

class RefundTokenRecorded extends Error {
  constructor() {
    super('a concurrent request recorded this refund token first');
    this.name = 'RefundTokenRecorded';
  }
}

async function findRefundRecord(db: Db, refundToken: string): Promise<RefundRecord | null> {
  const [record] = await db.select().from(sandboxRefunds).where(eq(sandboxRefunds.refundToken, refundToken));
  return record ?? null;
}

// A refund with its refund.token: the refund and its record are written together (one statement when it is approved,
// else one transaction), so a repeat of the token (Payrail re-sending a refund whose answer it lost) or a concurrent
// twin is answered from the record.
async function idempotentRefund(db: Db, paymentToken: string, refundToken: string, requestedMinor: number | undefined): Promise<AdapterAnswerBody> {
  const gatewayToken = newGatewayToken('sbx_rf');
  const atOnce = await recordApprovedRefund(db, {
    paymentToken,
    refundToken,
    gatewayToken,
    requestedMinor: requestedMinor ?? null,
    refundCountMax: REFUND_COUNT_MAX,
  });
  if (typeof atOnce === 'object') return answerOfRecord({ ...atOnce, status: 'approved', declineReason: null }, paymentToken, requestedMinor);
  const recorded = await findRefundRecord(db, refundToken);
  if (recorded) return answerOfRecord(recorded, paymentToken, requestedMinor);
  try {
    return await db.transaction(async (tx) => {
      const transaction = await findByPaymentToken(tx, paymentToken);
      // Nothing to record against: the same request is declined the same way again.
      if (transaction === null) {
        return { result: true, status: 'declined', gateway_token: gatewayToken, details: refundRefusal(null, requestedMinor) ?? UNKNOWN_TRANSACTION };
      }
      const amountMinor = requestedMinor ?? transaction.amountMinor - transaction.refundedMinor;
      let refusal = refundRefusal(transaction, requestedMinor);
      if (refusal === null && !(await recordRefund(tx, paymentToken, amountMinor, REFUND_COUNT_MAX))) {
        refusal = refundRefusal(await findByPaymentToken(tx, paymentToken), requestedMinor) ?? 'the payment changed during the refund; try again';
      }
      const [inserted] = await tx
        .insert(sandboxRefunds)
        .values({
          refundToken,
          paymentToken,
          gatewayToken,
          requestedMinor: requestedMinor ?? null,
          amountMinor: refusal === null ? amountMinor : null,
          currency: transaction.currency,
          status: refusal === null ? 'approved' : 'declined',
          declineReason: refusal,
        })
        .onConflictDoNothing()
        .returning();
      if (!inserted) throw new RefundTokenRecorded(); // rolls this refund back: the twin's stands
      return answerOfRecord(inserted, paymentToken, requestedMinor);
    });
  } catch (error) {
    const twin = error instanceof RefundTokenRecorded ? await findRefundRecord(db, refundToken) : null;
    if (twin === null) throw error;
    return answerOfRecord(twin, paymentToken, requestedMinor);
  }
}

function answerOfRecord(record: RefundRecord, paymentToken: string, requestedMinor: number | undefined): AdapterAnswerBody {
  if (record.paymentToken !== paymentToken) return { result: false, error: 'refund.token belongs to a refund of another payment' };
  if (requestedMinor !== undefined && requestedMinor !== (record.requestedMinor ?? record.amountMinor)) {
    const recordedAmount = record.requestedMinor ?? record.amountMinor ?? 'the remaining amount';
    return { result: false, error: `refund.token was used for a refund of ${recordedAmount}, not ${requestedMinor}` };
  }
  if (record.status === 'approved' && record.amountMinor !== null) {
    return { result: true, status: 'approved', gateway_token: record.gatewayToken, amount: record.amountMinor, currency: record.currency };
  }
  return { result: true, status: 'declined', gateway_token: record.gatewayToken, details: record.declineReason ?? 'declined by the sandbox issuer' };
}
