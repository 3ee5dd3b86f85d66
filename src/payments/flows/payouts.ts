import type { GatewaySettings, PayoutRequest } from '../contract/adapter-contract.ts';
import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { interpretAdapterAnswer, type AdapterAnswer, type AdapterOutcome } from '../domain/adapter-outcome.ts';
import { chargeOf, payoutReserved } from '../../ledger/index.ts';
import { isFinal } from '../domain/payment-status.ts';
import { decidePayoutOutcome, decidePayoutTransition, type PayoutDecision } from '../domain/payout-rejection.ts';
import { reportedDetails } from '../domain/reported-details.ts';
import { randomHex } from '../../platform/lib/crypto.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { maskPan } from '../../platform/lib/pan.ts';
import { maskCardData, redactForLog, type SensitiveCardData } from '../../platform/lib/redact.ts';
import { paymentLogEntries } from './payment-log-entries.ts';
import type { Db } from '../../platform/database.ts';
import { InsufficientBalanceError, ledgerTransaction, postLedger } from '../../ledger/index.ts';
import type { MerchantScope, PaymentRow } from '../store/payments-repo.ts';
import { insertPayout, type PayoutInsert } from '../store/payouts-repo.ts';
import type { PaymentChanges } from '../store/payment-changes.ts';
import type { PaymentLogInput } from '../store/payment-logs-repo.ts';
import { lockPayment } from '../store/processing-repo.ts';
import { changeLockedPayment } from './payment-status-change.ts';
import { decideStatusChange } from '../domain/status-change.ts';
import { newEventId } from '../domain/event-id.ts';
import { writeUntoldMove } from '../store/status-writer.ts';
import { afterCommit } from '../../platform/lib/commit-observer.ts';
import { assertPublicCallbackUrl } from './callback-url-guard.ts';
import { resolveGateway, type ResolvedGateway } from './gateways.ts';
import { buildPayoutRequest, storedPayoutCustomer, type CreatePayoutRequest } from './payout-request.ts';
import { merchantKeyOf, type ProcessingDeps } from './process-payment.ts';
import { gatewayPublicUrl } from '../domain/custom-host.ts';
import { type KeyCommit, storeUnderKeyIn } from './idempotency-keys.ts';
import { exchangeLeaseUntil, firstStatusCheckAt } from '../domain/adapter-exchange.ts';
import type { PaymentExchange } from '../store/adapter-exchange-repo.ts';

export type { CreatePayoutRequest, PayoutRequisiteType } from './payout-request.ts';

const PAYOUT_TOKEN_BYTES = 16; // 32 lowercase hex characters

export interface CreatePayoutInput {
  scope: MerchantScope;
  request: CreatePayoutRequest;
  merchantKey: string | undefined; // the key the request authenticated with
  clientIp: string | null;
  commitKey: KeyCommit | null; // the Idempotency-Key, committed with the payout and its reservation in their transaction
}

export interface CreatedPayout {
  payout: PaymentRow;
  gatewayAlias: string;
  publicUrl: string; // the base of the URLs given out for it: the gateway's custom_host, else PAYRAIL_PUBLIC_URL
}

// spec 2.4 and 4: the amount plus commission is reserved from `available` with the payout row (one transaction;
// 422 insufficient_balance and nothing stored when it is not there), then the adapter's /payout is called outside
// any transaction and its answer applied by the payout rejection rule.
export async function createPayout(deps: ProcessingDeps, input: CreatePayoutInput): Promise<CreatedPayout> {
  const { context } = deps;
  const db = context.database.db;
  const { scope, request } = input;
  if (!context.config.allowPrivateCallbacks) await assertPublicCallbackUrl(request.callbackUrl);
  const gateway = await resolveGateway(context, scope.merchantId, scope.environment);
  const method = methodSettingsOf(gateway.settings, 'payout');
  // The /payout in flight (domain/adapter-exchange.ts): its first status check is due once it could have answered,
  // and waits longer while it has not.
  const sentAt = new Date();
  const sending = {
    kind: 'payout' as const,
    until: exchangeLeaseUntil([method.responseTimeoutS], sentAt),
    firstCheckDueAt: firstStatusCheckAt(method, sentAt),
  };
  const expiresAt = new Date(sentAt.getTime() + context.config.payoutLifetimeMinutes * 60_000);
  // Before the reservation: a payout the dashboard sends names no key, and nothing is reserved if none can be found.
  const merchantKey = input.merchantKey ?? (await merchantKeyOf(context, scope));
  const payout = await reservePayout(db, newPayoutRow(scope, request, gateway, expiresAt), sending.firstCheckDueAt, input.commitKey, sending);
  const publicUrl = gatewayPublicUrl(context.config.publicUrl, gateway.settings.custom_host); // spec 2.10 custom_host
  const adapterRequest = buildPayoutRequest(publicUrl, payout, gateway.settings, merchantKey, request.panDigits, input.clientIp);
  const call = await deps.adapterClient.call(gateway.settings, 'payout', adapterRequest, method.responseTimeoutS * 1000, gateway.gatewayId);
  const settled = await applyPayoutAnswer(db, payout, {
    ...call,
    request: adapterRequest,
    settings: gateway.settings,
    sensitive: { panDigits: request.panDigits },
    nextCheckDueAt: new Date(Date.now() + method.finalWaitingS * 1000),
    exchange: { paymentId: payout.id, kind: sending.kind, until: sending.until },
  });
  return { payout: settled, gatewayAlias: gateway.alias, publicUrl };
}

function newPayoutRow(scope: MerchantScope, request: CreatePayoutRequest, gateway: ResolvedGateway, expiresAt: Date): PayoutInsert {
  return {
    expiresAt,
    token: randomHex(PAYOUT_TOKEN_BYTES),
    merchantId: scope.merchantId,
    environment: scope.environment,
    product: `Payout ${request.orderNumber}`,
    amountMinor: request.amountMinor,
    currency: request.currency,
    gatewayAmountMinor: request.amountMinor,
    gatewayCurrency: request.currency,
    callbackUrl: request.callbackUrl,
    orderNumber: request.orderNumber,
    locale: 'en',
    cardMask: request.panDigits === null ? null : maskPan(request.panDigits),
    customer: storedPayoutCustomer(request.customer),
    bankAccount: request.bankAccount,
    gatewayId: gateway.gatewayId,
    gatewayAlias: gateway.alias,
  };
}

// The payout row and its reservation, together or not at all: parallel payouts on one balance serialize on the
// balance row inside postLedger, so they can never overdraw it.
async function reservePayout(
  db: Db,
  row: PayoutInsert,
  firstCheckDueAt: Date,
  commitKey: KeyCommit | null,
  exchange: Pick<PaymentExchange, 'kind' | 'until'>,
): Promise<PaymentRow> {
  try {
    return await storeUnderKeyIn(commitKey, (key, commitIn) =>
      ledgerTransaction(db, async (tx) => {
        const payout = await insertPayout(tx, row, firstCheckDueAt, 'api', exchange, key); // born holding its /payout's marker
        const charge = chargeOf(payout.amountMinor, payout.currency, { percentBp: payout.commissionPercentBp, fixedMinor: payout.commissionFixedMinor });
        // Without a key to commit apart, the posting is the last statement: its COMMIT goes with it.
        await postLedger(tx, payout, payoutReserved(charge), { paymentId: payout.id }, { commit: commitIn === null });
        await commitIn?.(tx, { kind: 'payout', token: payout.token });
        return payout;
      }),
    );
  } catch (error) {
    if (!(error instanceof InsufficientBalanceError)) throw error;
    const message = `the available ${error.currency} balance does not cover the payout: it needs ${error.neededMinor} (amount plus commission, minor units)`;
    throw new ApiError('insufficient_balance', 422, message, [{ code: 'insufficient_balance', field: 'amount', message }]);
  }
}

interface PayoutAnswer {
  answer: AdapterAnswer;
  url: string;
  durationS: number;
  request: PayoutRequest;
  settings: GatewaySettings;
  sensitive: SensitiveCardData;
  nextCheckDueAt: Date; // when a payout left open (pending, processing) is asked about next
  exchange: PaymentExchange; // the /payout's marker, released with its answer
}

// The rule decides the move (domain), the domain its whole consequence (payout_sent or payout_released, the
// notification of a final status, the next status check of an open one), and the store's one status writer writes
// it. A final answer to the payout this request created (still init, its /payout's marker still held) is written by
// one statement without a lock: nothing about it was told yet (writeUntoldMove). Anything else (an open answer, a
// status check or a callback that got there first) is decided again in one transaction under the payout's row lock.
async function applyPayoutAnswer(db: Db, created: PaymentRow, sent: PayoutAnswer): Promise<PaymentRow> {
  const outcome = interpretAdapterAnswer(sent.answer);
  const decision = decidePayoutOutcome(sent.answer, outcome, { declinePayoutOnRequestError: sent.settings.decline_payout_on_request_error === true });
  const logs = answerLogs(sent, outcome, decision);
  const untold = await applyToCreatedPayout(db, created, sent, { outcome, decision, logs });
  if (untold !== null) return untold;
  return db.transaction(async (tx) => {
    const current = await lockPayment(tx, created.id);
    if (!current) throw new Error(`payout ${created.id} vanished`);
    const transition = decidePayoutTransition(current.status, decision, sent.settings.enable_change_final_status === true);
    const changes: PaymentChanges = isFinal(current.status) && transition === null ? {} : reportedDetails(outcome, sent.sensitive);
    if (transition) changes.declineReason = transition.to === 'declined' ? maskCardData(decision.declineReason, sent.sensitive) : null;
    // The marker is released in the same UPDATE as the answer (the row is locked: what it holds is what we read).
    const heldByThis = current.exchangeKind === sent.exchange.kind && current.exchangeUntil?.getTime() === sent.exchange.until.getTime();
    if (heldByThis) [changes.exchangeKind, changes.exchangeUntil, changes.exchangeCaptureMinor] = [null, null, null];
    return changeLockedPayment(tx, current, { transition, cause: 'adapter', changes, logs, statusCheckDueAt: sent.nextCheckDueAt });
  });
}

// The one-statement form of the above for a final answer to the payout as its request created it; null when it does
// not apply (nothing written).
async function applyToCreatedPayout(
  db: Db,
  created: PaymentRow,
  sent: PayoutAnswer,
  answer: { outcome: AdapterOutcome; decision: PayoutDecision; logs: PaymentLogInput[] },
): Promise<PaymentRow | null> {
  const transition = decidePayoutTransition(created.status, answer.decision, sent.settings.enable_change_final_status === true);
  if (transition === null || !transition.final) return null;
  const changes: PaymentChanges = reportedDetails(answer.outcome, sent.sensitive);
  changes.declineReason = transition.to === 'declined' ? maskCardData(answer.decision.declineReason, sent.sensitive) : null;
  const change = decideStatusChange(created, { transition, cause: 'adapter', changes, logs: answer.logs, now: new Date(), notificationEventId: newEventId() });
  if (change.posting !== null && change.posting.guardedDebitMinor > 0) return null;
  const written = await writeUntoldMove(db, change, { kind: sent.exchange.kind, until: sent.exchange.until });
  if (written !== null)
    afterCommit(db, (metrics) => metrics.paymentFinalized({ status: written.status, environment: written.environment, gatewayId: written.gatewayId }));
  return written;
}

// The request as sent and the answer as received (redacted: the PAN masked, keys removed), the adapter's own logs,
// and, when the request failed, how the rule treated it.
function answerLogs(sent: PayoutAnswer, outcome: AdapterOutcome, decision: PayoutDecision): PaymentLogInput[] {
  const { answer } = sent;
  const ownLog = {
    kind: 'payout',
    request: { url: sent.url, body: sent.request },
    status: answer.kind === 'http_error' ? answer.statusCode : 200,
    response: answer.kind === 'response' ? answer.body : answer,
    duration: sent.durationS,
  };
  const logs = paymentLogEntries('payout', [ownLog, ...outcome.logs], sent.sensitive);
  if (decision.requestError === null) return logs;
  const rule = {
    request_error: decision.requestError,
    decline_payout_on_request_error: sent.settings.decline_payout_on_request_error === true,
    decided: decision.status,
    reason: 'spec 4: a payout request error rejects the payout only when the gateway sets decline_payout_on_request_error',
  };
  return [...logs, { kind: 'payout_request_error', entry: redactForLog(rule, sent.sensitive) }];
}
