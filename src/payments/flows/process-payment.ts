import type { AppContext } from '../../app-context.ts';
import { maskPan } from '../../platform/lib/pan.ts';
import { interpretAdapterAnswer } from '../domain/adapter-outcome.ts';
import type { AdapterClient } from '../gateways/http-adapter-client.ts';
import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { decryptWithMasterKey } from '../../platform/lib/crypto.ts';
import type { CardInput, CreatePaymentRequest } from '../domain/payment-request.ts';
import type { StatusCause } from '../domain/status-cause.ts';
import { insertPendingPayment, type MerchantScope, type PaymentRow } from '../store/payments-repo.ts';
import type { OutcomeRow, OutcomeSelection } from '../store/outcome-statement-repo.ts';
import { enqueue } from '../store/outbox-repo.ts';
import { findPaymentById, INIT_TO_PENDING, markProcessing } from '../store/processing-repo.ts';
import { findMerchantKeySealed } from '../store/merchants-repo.ts';
import { isSandboxTestCardNumber, TEST_CARD_IN_PRODUCTION_REASON } from '../../platform/lib/sandbox-test-cards.ts';
import { testCardInProductionOutcome } from '../domain/test-card-outcome.ts';
import { applySentOutcome, applyToLockedPayment } from './apply-gateway-outcome.ts';
import { createPayment, newPaymentRow, type CreatePaymentOptions } from './create-payment.ts';
import { resolveGateway, type ResolvedGateway } from './gateways.ts';
import { callPayAlongRoute, gatewayForPayment, routingAppliesTo, type GatewayRoute } from './gateway-routing.ts';
import { assertMerchantActive } from './merchant-standing.ts';
import { buildPayRequest, type PayRequestPayment } from './adapter-requests.ts';
import { exchangeLeaseUntil, firstStatusCheckAt } from '../domain/adapter-exchange.ts';
import { holdPaymentExchange, paymentExchangeColumns, releasePaymentExchange, type PaymentExchange } from '../store/adapter-exchange-repo.ts';
import { storeUnderKey, type KeyCommit } from './idempotency-keys.ts';

export interface ProcessingDeps {
  context: AppContext;
  adapterClient: AdapterClient;
}

// Submit card data (hosted page or Host-to-Host): init → pending (cause: who submitted it, recorded with the move),
// call the adapter's /pay outside any transaction, then record its answer (cause adapter). A crash between the two
// leaves a pending payment with a scheduled status check, so nothing is lost (principle 8). The CVV lives only in
// this call's memory.
export interface PaymentRef {
  id: number;
  merchantId: number;
  environment: PaymentRow['environment'];
  merchantKey?: string; // the caller's own key when it authenticated with it (Host-to-Host): saves a lookup
  chosenGatewayId?: number | null; // the customer's pick on the provider-selection page
}

export async function processPayment(
  deps: ProcessingDeps,
  ref: PaymentRef,
  card: CardInput | null,
  client: { ip: string | null },
  cause: StatusCause,
): Promise<PaymentRow> {
  const { context } = deps;
  const db = context.database.db;
  const paymentId = ref.id;
  // A caller with the merchant's key (Host-to-Host) was just checked by merchant auth; hosted pages are checked here.
  if (ref.merchantKey === undefined) await assertMerchantActive(db, ref.merchantId);
  const { gateway, route } = await gatewayForPayment(context, ref, card);
  const payMethod = methodSettingsOf(gateway.settings, 'pay');
  // A sandbox test card with a production key is declined here, so no production gateway ever sees it.
  const testCardInProduction = card !== null && ref.environment === 'production' && isSandboxTestCardNumber(card.panDigits);
  const sentAt = new Date();
  const exchange: PaymentExchange = { paymentId, kind: 'pay', until: payExchangeUntil(gateway, route, sentAt) };
  const payment = await db.transaction(async (tx) => {
    const started = await markProcessing(
      tx,
      paymentId,
      {
        gatewayId: gateway.gatewayId,
        gatewayAlias: gateway.alias,
        ...(route ? { routingDecision: route.decision } : {}),
        ...(card ? { cardMask: maskPan(card.panDigits), cardHolder: card.holder, cardExpiryMonth: card.expiryMonth, cardExpiryYear: card.expiryYear } : {}),
        ...(testCardInProduction ? {} : paymentExchangeColumns(exchange)), // the /pay in flight: status checks wait for it
      },
      cause,
    );
    if (!started) return null;
    if (testCardInProduction) {
      const refusal = { kind: 'pay', refused: TEST_CARD_IN_PRODUCTION_REASON };
      // Payrail's own rule declines it, no adapter answered: cause system
      const source = { kind: 'pay', cause: 'system', settings: gateway.settings, extraLogs: [refusal] } as const;
      return (await applyToLockedPayment(tx, started, testCardInProductionOutcome(), source)).payment;
    }
    if (payMethod.statusCheckerEnabled) {
      await enqueue(tx, { topic: 'status_check', paymentId, dueAt: firstStatusCheckAt(payMethod, sentAt) });
    }
    return started;
  });
  if (!payment) {
    const current = await findPaymentById(db, paymentId);
    // Still init: its lifetime ended (markProcessing moves it only before expires_at), the expiry worker not yet run.
    if (current?.status === 'init') throw new ApiError('payment_expired', 409, 'the payment expired; card data is no longer accepted');
    throw new ApiError('invalid_state', 409, `payment is ${current?.status ?? 'missing'}; card data is accepted only once`);
  }
  if (testCardInProduction) return payment;
  const merchantKey = ref.merchantKey ?? (await merchantKeyOf(context, payment));
  return sendPay(deps, { payment, gateway, route, merchantKey, card, clientIp: client.ip, exchange }, 'full');
}

export interface HostToHostPayment {
  scope: MerchantScope;
  request: CreatePaymentRequest;
  card: CardInput; // the request's own card
  options: CreatePaymentOptions;
  merchantKey: string | undefined; // the key the request authenticated with (merchant auth also checked the merchant is active)
  clientIp: string | null;
  commitKey: KeyCommit | null; // the Idempotency-Key, committed in the transaction that stores the payment
}

// A create request carrying the card: the gateway is resolved before the insert, so the payment is born pending
// (init → pending, decided by the domain) in the statement that queues its status check; its /pay answer is
// written by one more (applySentOutcome). A crash in between leaves a pending payment the status checker settles.
export async function payHostToHost(deps: ProcessingDeps, input: HostToHostPayment): Promise<OutcomeRow<'created'>> {
  const { context } = deps;
  const db = context.database.db;
  const { scope, request, card } = input;
  // With routing the gateway is chosen once the payment has its token (the seed of the plan): the general path.
  const routed = await routingAppliesTo(context, scope, request);
  const gateway = routed ? null : await resolveGateway(context, scope.merchantId, scope.environment);
  const payMethod = gateway && methodSettingsOf(gateway.settings, 'pay');
  // Without status checks nothing would settle a payment left pending before its /pay; a test card in production
  // is refused without one. Both take the general path: created init (the expiry worker's), then processPayment.
  if (
    gateway === null ||
    payMethod === null ||
    !payMethod.statusCheckerEnabled ||
    (scope.environment === 'production' && isSandboxTestCardNumber(card.panDigits))
  ) {
    const created = await createPayment(db, scope, request, input.options, input.commitKey);
    const ref = { id: created.id, merchantId: scope.merchantId, environment: scope.environment, merchantKey: input.merchantKey };
    return processPayment(deps, ref, card, { ip: input.clientIp }, 'api');
  }
  const row = newPaymentRow(scope, request, input.options);
  const sentAt = new Date();
  const payUntil = payExchangeUntil(gateway, null, sentAt);
  const sentTo = { gatewayId: gateway.gatewayId, gatewayAlias: gateway.alias, payExchangeUntil: payUntil };
  const created = await storeUnderKey(db, input.commitKey, 'payment', (within, key) =>
    insertPendingPayment(within, row, INIT_TO_PENDING, sentTo, firstStatusCheckAt(payMethod, sentAt), 'api', key),
  );
  const payment = {
    ...row,
    id: created.id,
    status: created.status,
    capturedMinor: null,
    commissionPercentBp: created.commissionPercentBp,
    commissionFixedMinor: created.commissionFixedMinor,
  };
  const merchantKey = input.merchantKey ?? (await merchantKeyOf(context, scope));
  const exchange = { paymentId: created.id, kind: 'pay' as const, until: payUntil };
  return sendPay(deps, { payment, gateway, merchantKey, card, clientIp: input.clientIp, exchange }, 'created');
}

interface PaySending {
  // pending, moved there by this request
  payment: PayRequestPayment &
    Pick<
      PaymentRow,
      | 'status'
      | 'environment'
      | 'gatewayCurrency'
      | 'operationType'
      | 'amountMinor'
      | 'capturedMinor'
      | 'currency'
      | 'commissionPercentBp'
      | 'commissionFixedMinor'
      | 'needConfirmation'
    >;
  gateway: ResolvedGateway;
  route?: GatewayRoute | null; // with routing: where to fail over when the gateway provably never got the request
  merchantKey: string;
  card: CardInput | null;
  clientIp: string | null;
  storedCardToken?: string | null; // a recurring charge: the provider's recurring_gateway_token, sent as card.card_token_from
  exchange?: PaymentExchange; // the /pay's marker, taken by the transaction that moved the payment; absent: taken here
}

// A /pay may fail over along its route: its lease covers every gateway it may try in turn.
function payExchangeUntil(gateway: ResolvedGateway, route: GatewayRoute | null | undefined, sentAt: Date): Date {
  const tried = [gateway, ...(route?.fallbacks ?? [])];
  return exchangeLeaseUntil(
    tried.map((each) => methodSettingsOf(each.settings, 'pay').responseTimeoutS),
    sentAt,
  );
}

// The adapter's /pay, outside any transaction, and its answer recorded (the CVV lives only in this call's memory).
// The payment's pay exchange marker is held meanwhile (domain/adapter-exchange.ts): its status checks wait for it.
export async function sendPay<S extends OutcomeSelection>(deps: ProcessingDeps, sending: PaySending, selection: S): Promise<OutcomeRow<S> | PaymentRow> {
  const { payment } = sending;
  const db = deps.context.database.db;
  const exchange = sending.exchange ?? { paymentId: payment.id, kind: 'pay' as const, until: payExchangeUntil(sending.gateway, sending.route, new Date()) };
  if (sending.exchange === undefined && (await holdPaymentExchange(db, exchange, { from: ['pending'], now: new Date() })) === null) {
    // Another /pay of the payment is in flight, or it was settled meanwhile: it is never sent twice.
    const current = await findPaymentById(db, payment.id);
    if (current === null) throw new Error(`payment ${payment.id} vanished`);
    return current;
  }
  try {
    const recorded = await exchangePay(deps, sending, selection);
    // The outcome statement released the marker with the answer; the locked path (a callback got there first, an
    // authorization, a step) leaves it here.
    if ('exchangeKind' in recorded && recorded.exchangeKind !== null) await releasePaymentExchange(db, exchange);
    return recorded;
  } catch (error) {
    // The exchange ended without its answer recorded: the status checker may ask at once (a crash leaves the lease to lapse).
    await releasePaymentExchange(db, exchange).catch(() => {});
    throw error;
  }
}

async function exchangePay<S extends OutcomeSelection>(deps: ProcessingDeps, sending: PaySending, selection: S): Promise<OutcomeRow<S> | PaymentRow> {
  const { payment, card } = sending;
  // gateway: the one that answered (another than sending.gateway only after a failover)
  const { gateway, request, call } = await callPayAlongRoute(deps, sending, (through) =>
    buildPayRequest(deps.context, payment, through.settings, sending.merchantKey, card, sending.clientIp, sending.storedCardToken ?? null),
  );
  const outcome = interpretAdapterAnswer(call.answer);
  const ownLog = {
    kind: 'pay',
    request: { url: call.url, body: request },
    status: call.answer.kind === 'http_error' ? call.answer.statusCode : 200,
    response: call.answer.kind === 'response' ? call.answer.body : call.answer,
    duration: call.durationS,
  };
  return applySentOutcome(
    deps.context.database.db,
    payment,
    outcome,
    {
      kind: 'pay',
      cause: 'adapter',
      settings: gateway.settings,
      extraLogs: [ownLog],
      sensitive: card && { panDigits: card.panDigits, cvv: card.cvv },
      authorizationHoldHours: deps.context.config.authorizationHoldHours,
      gatewayId: gateway.gatewayId,
    },
    selection,
  );
}

export async function merchantKeyOf(context: AppContext, payment: Pick<PaymentRow, 'merchantId' | 'environment'>): Promise<string> {
  const sealed = await findMerchantKeySealed(context.database.db, payment.merchantId, payment.environment);
  if (!sealed) throw new Error(`merchant ${payment.merchantId} has no ${payment.environment} key`);
  return decryptWithMasterKey(context.masterKey, sealed);
}
