import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { chargeOf, refundReserved } from '../../ledger/index.ts';
import { randomHex } from '../../platform/lib/crypto.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { Db } from '../../platform/database.ts';
import { InsufficientBalanceError, ledgerTransaction } from '../../ledger/index.ts';
import type { MerchantScope, PaymentRow } from '../store/payments-repo.ts';
import { findPaymentById } from '../store/processing-repo.ts';
import { insertReservedRefund, lockPaymentToRefund } from '../store/refund-reservation-repo.ts';
import { findRefundByToken, type RefundRow } from '../store/refunds-repo.ts';
import { gatewayOfPayment, type ResolvedGateway } from './gateways.ts';
import type { ProcessingDeps } from './process-payment.ts';
import { assertRefundedAsSeen, decideRefundAmount } from '../domain/refund-amount.ts';
import { refundExchangeUntil, sendRefund } from './refund-send.ts';
import { type KeyCommit, storeUnderKeyIn } from './idempotency-keys.ts';
import { firstStatusCheckAt } from '../domain/adapter-exchange.ts';

const REFUND_TOKEN_BYTES = 16; // 32 lowercase hex characters
const TOKEN_PATTERN = /^[0-9a-f]{32}$/;

export interface RefundInput {
  paymentToken: string;
  amountMinor: number | null; // null: the whole remaining refundable amount
  refundedMinorSeen?: number; // the dashboard's form: the payment's refunded amount when it was shown (assertRefundedAsSeen)
}

export interface PaymentRefund {
  paymentToken: string;
  refund: RefundRow;
}

// POST /api/v1/refunds (issue 8, spec 2.5): reserve the refund under the payment's row lock (its row, the payment's
// refunded amount, the hold on the merchant's available balance, its first check and the Idempotency-Key naming it, in
// one transaction, whose first statement finds and locks the payment), then ask the payment's gateway and apply its
// answer. A refund the adapter leaves pending (or a crash before the call) is settled by its check
// (workers/refund-checker.ts), which re-sends it with its token.
export async function refundPayment(deps: ProcessingDeps, scope: MerchantScope, input: RefundInput, commitKey: KeyCommit | null): Promise<PaymentRefund> {
  const { payment, gateway, refund } = await reserveRefund(deps, scope, input, commitKey);
  return { paymentToken: payment.token, refund: await sendRefund(deps, refund, payment, gateway) };
}

interface ReservedRefund {
  payment: PaymentRow;
  gateway: ResolvedGateway;
  refund: RefundRow;
}

async function reserveRefund(deps: ProcessingDeps, scope: MerchantScope, input: RefundInput, commitKey: KeyCommit | null): Promise<ReservedRefund> {
  const { context } = deps;
  try {
    return await storeUnderKeyIn(commitKey, (key, commitIn) =>
      ledgerTransaction(context.database.db, async (tx): Promise<ReservedRefund> => {
        // Another merchant's or environment's payment is indistinguishable from a missing one.
        const locked = TOKEN_PATTERN.test(input.paymentToken) ? await lockPaymentToRefund(tx, scope, input.paymentToken) : null;
        if (!locked) throw new ApiError('not_found', 404, 'payment not found');
        const { payment, disputedMinor, refundCount, terms } = locked;
        assertRefundedAsSeen(payment, input.refundedMinorSeen);
        const amountMinor = decideRefundAmount({ ...payment, disputedMinor }, input.amountMinor, refundCount);
        // the answer a client can act on comes before any gateway question
        const gateway = await gatewayOfPayment(context, payment, tx);
        if (!gateway) {
          throw new ApiError('no_gateway', 422, 'the gateway that processed this payment no longer exists; an operator must restore it before a refund');
        }
        // The first check once the refund's own request could have answered; it waits longer while it has not.
        const now = new Date();
        const times = { firstCheckAt: firstStatusCheckAt(methodSettingsOf(gateway.settings, 'refund'), now), exchangeUntil: refundExchangeUntil(gateway, now) };
        const posting = refundReserved(chargeOf(amountMinor, payment.currency, terms));
        const newRefund = { token: randomHex(REFUND_TOKEN_BYTES), payment, amountMinor, terms };
        // It locks the balance: without a key to commit apart, it is the last statement and its COMMIT goes with it.
        const refund = await insertReservedRefund(tx, newRefund, times, { scope: payment, posting }, key, commitIn === null);
        await commitIn?.(tx, { kind: 'refund', token: refund.token });
        return { payment, gateway, refund };
      }),
    );
  } catch (error) {
    if (!(error instanceof InsufficientBalanceError)) throw error;
    throw new ApiError(
      'insufficient_balance',
      422,
      `the available balance does not cover the refund and its commission (${error.neededMinor} ${error.currency}); nothing was refunded`,
    );
  }
}

// GET /api/v1/refunds/{token}: one refund of the merchant's scope, with its payment's token.
export async function getRefund(db: Db, scope: MerchantScope, token: string): Promise<PaymentRefund> {
  const refund = TOKEN_PATTERN.test(token) ? await findRefundByToken(db, scope, token) : null;
  if (!refund) throw new ApiError('not_found', 404, 'refund not found');
  const payment = await findPaymentById(db, refund.paymentId);
  if (!payment) throw new Error(`payment ${refund.paymentId} of refund ${refund.id} vanished`);
  return { paymentToken: payment.token, refund };
}
