import { PROVIDER_TIMEOUT_CODE, responseTimeoutMsOf, type AdapterSettings } from '@payrail/adapter-kit';
import { isExpired, parseFormExpiry } from '../platform/lib/card-checks.ts';
import { maskPanText } from '../platform/lib/redact.ts';
import { behaviourOf, finalAnswerOf, isOnAllowedOrigin, newGatewayToken, sleepUnlessClosing, type AdapterAnswerBody, type SandboxRuntime } from './runtime.ts';
import { cardOnFilePayFlow, withRecurringToken } from './recurring-flow.ts';
import { requestFingerprint, sealCallbackKey } from './sandbox-keys.ts';
import type { PayBodyInput, PayoutBodyInput } from './schemas.ts';
import {
  DECLINE_REASONS,
  SCENARIO_BEHAVIOURS,
  isSandboxTestCard,
  panDigitsOf,
  sandboxScenarioOf,
  unknownCardReason,
  type SandboxOperation,
  type SandboxScenario,
} from './test-cards.ts';
import { threeDSecureRedirectOf } from './three-d-secure.ts';
import { secureCodeRequestOf } from './otp-flow.ts';
import { SANDBOX_NEXT_STEP } from './next-step-flow.ts';
import { findByPaymentToken, insertTransaction, type SandboxTransaction } from './transactions-repo.ts';
import { AUTHORIZATION_TTL_MS } from './confirm-flow.ts';

// The timeout card sleeps response_timeout + 1 s; a bounded sleep keeps a misconfigured timeout from pinning a request.
const TIMEOUT_CARD_SLEEP_MS_MAX = 120_000;
const TIMEOUT_CARD_OVERSHOOT_MS = 1000;
const DIFFERENT_REQUEST = 'payment.token is already used by a different sandbox request';

type CardDecision = { scenario: SandboxScenario } | { scenario: null; declineReason: string };

// spec 1: test cards work in sandbox only. settings.sandbox must be true; absent counts as production (fail closed).
// An expired card is declined whatever its number, as an issuer would (issue 11); the hosted page catches it first,
// a Host-to-Host request reaches here.
function decideCard(panText: string | undefined, operation: SandboxOperation, sandbox: boolean | undefined, expires?: string): CardDecision {
  if (panText === undefined) {
    return { scenario: null, declineReason: operation === 'pay' ? DECLINE_REASONS.cardDataMissing : unknownCardReason('payout') };
  }
  const panDigits = panDigitsOf(panText);
  if (sandbox !== true) {
    const reason = isSandboxTestCard(panDigits) ? DECLINE_REASONS.sandboxCardInProduction : DECLINE_REASONS.realCardInSandboxAdapter;
    return { scenario: null, declineReason: reason };
  }
  const expiry = expires === undefined ? null : parseFormExpiry(expires);
  if (expiry !== null && isExpired(expiry, new Date())) return { scenario: null, declineReason: DECLINE_REASONS.expiredCard };
  const scenario = sandboxScenarioOf(panDigits, operation);
  return scenario === null ? { scenario: null, declineReason: unknownCardReason(operation) } : { scenario };
}

// The sandbox sends the customer (3-D Secure TermUrl) and its callbacks only to Payrail's public origin: a request
// naming another place is refused before anything is recorded.
function offOriginRefusal(runtime: SandboxRuntime, urls: Readonly<Record<string, string | undefined>>): AdapterAnswerBody | null {
  for (const [field, url] of Object.entries(urls)) {
    if (url !== undefined && !isOnAllowedOrigin(runtime, url)) {
      return { result: false, error: `${field} must be on Payrail's public origin ${runtime.allowedOrigin}` };
    }
  }
  return null;
}

interface NewTransaction {
  paymentToken: string;
  operation: SandboxOperation;
  fingerprint: string;
  decision: CardDecision;
  panText: string | undefined;
  amountMinor: number;
  currency: string;
  processingUrl: string | null;
  callbackUrl: string | null;
  merchantPrivateKey: string | null;
  needConfirmation?: boolean; // a two-step pay: its approval waits for confirm_request or decline_request
}

// Null when another request (maybe in another process) recorded this payment token first.
async function recordTransaction(runtime: SandboxRuntime, input: NewTransaction): Promise<SandboxTransaction | null> {
  const behaviour = input.decision.scenario === null ? null : SCENARIO_BEHAVIOURS[input.decision.scenario];
  const waitsForEvent = behaviour !== null && behaviour.callback !== 'none';
  const sendsCallback = waitsForEvent && input.merchantPrivateKey !== null && input.callbackUrl !== null;
  return insertTransaction(
    runtime.db,
    {
      paymentToken: input.paymentToken,
      gatewayToken: newGatewayToken('sbx'),
      operation: input.operation,
      scenario: input.decision.scenario,
      requestFingerprint: input.fingerprint,
      amountMinor: input.amountMinor,
      currency: input.currency,
      panMasked: input.panText === undefined ? null : maskPanText(input.panText),
      processingUrl: input.processingUrl,
      callbackUrl: input.callbackUrl,
      // Without a later event (3-D Secure, callback) the provider's own record is final at once,
      // even when the first answer says pending (status-checker and timeout cards).
      status: behaviour === null ? 'declined' : waitsForEvent ? 'pending' : behaviour.finalStatus,
      declineReason: 'declineReason' in input.decision ? input.decision.declineReason : waitsForEvent ? null : (behaviour?.declineReason ?? null),
      callbackKeySealed: sendsCallback ? sealCallbackKey(runtime.keys, input.merchantPrivateKey!) : null,
      callbackDueAt: sendsCallback && behaviour.callback === 'after_delay' ? new Date(Date.now() + runtime.asyncApprovalDelayMs) : null,
      confirmation: input.needConfirmation === true ? 'awaiting' : null,
    },
    input.needConfirmation === true ? Math.max(runtime.transactionTtlMs, AUTHORIZATION_TTL_MS) : runtime.transactionTtlMs,
  );
}

// What the provider answers to the request that created the transaction (and to an identical repeat of it).
function firstAnswerOf(runtime: SandboxRuntime, transaction: SandboxTransaction): AdapterAnswerBody {
  const behaviour = behaviourOf(transaction);
  if (behaviour === null || behaviour.firstAnswer === 'final' || (transaction.status !== 'pending' && behaviour.callback !== 'none')) {
    return finalAnswerOf(transaction);
  }
  const pending: AdapterAnswerBody = {
    result: true,
    status: 'pending',
    gateway_token: transaction.gatewayToken,
    amount: transaction.amountMinor,
    currency: transaction.currency,
  };
  if (behaviour.firstAnswer === 'three_d_secure') return { ...pending, redirect_request: threeDSecureRedirectOf(runtime, transaction) };
  if (behaviour.firstAnswer === 'secure_code') return { ...pending, secure_code_request: secureCodeRequestOf(transaction) };
  if (behaviour.firstAnswer === 'next_step') return { ...pending, next_step: SANDBOX_NEXT_STEP };
  return { ...pending, details: 'waiting for the provider' };
}

// Idempotent on payment.token: the same request again gets the current answer; a different one is refused.
function repeatAnswer(runtime: SandboxRuntime, existing: SandboxTransaction, fingerprint: string): AdapterAnswerBody {
  if (existing.requestFingerprint !== fingerprint) return { result: false, error: DIFFERENT_REQUEST };
  return firstAnswerOf(runtime, existing);
}

// The transaction of this payment token: the one just recorded, or the one an earlier (or concurrent) request recorded.
// Insert first: a new payment token (nearly every /pay) costs one statement; a repeat is read after its insert lost.
async function recordOnce(runtime: SandboxRuntime, input: NewTransaction): Promise<{ transaction: SandboxTransaction } | AdapterAnswerBody> {
  const created = await recordTransaction(runtime, input);
  if (created !== null) return { transaction: created };
  const existing = await findByPaymentToken(runtime.db, input.paymentToken);
  return existing === null ? { result: false, error: DIFFERENT_REQUEST } : repeatAnswer(runtime, existing, input.fingerprint);
}

function timeoutCardSleepMs(settings: AdapterSettings): number {
  return Math.min(responseTimeoutMsOf(settings, 'pay') + TIMEOUT_CARD_OVERSHOOT_MS, TIMEOUT_CARD_SLEEP_MS_MAX);
}

// A bank_account payment without a card: the customer pays by transfer to the requisites; the sandbox
// reports it approved on the first /status, as if the transfer had arrived.
const SANDBOX_REQUISITES: Readonly<Record<string, Record<string, string>>> = {
  card: { card: '2200 0000 0000 0004', holder: 'SANDBOX RECIPIENT', bank_name: 'Sandbox Bank' },
  sbp: { phone: '+70000000000', holder: 'SANDBOX RECIPIENT', bank_name: 'Sandbox Bank' },
  account: { account: '40817810000000000001', holder: 'SANDBOX RECIPIENT', bank_name: 'Sandbox Bank' },
};

function requisitesFor(requisiteType: string | null | undefined, paymentToken: string): Record<string, string> {
  if (requisiteType === 'link') return { link: `https://sandbox.payrail.invalid/transfer/${paymentToken}` };
  return SANDBOX_REQUISITES[requisiteType ?? 'card'] ?? SANDBOX_REQUISITES['card']!;
}

export async function payFlow(runtime: SandboxRuntime, body: PayBodyInput): Promise<AdapterAnswerBody> {
  const refusal = offOriginRefusal(runtime, { processing_url: body.processing_url, callback_url: body.callback_url });
  if (refusal !== null) return refusal;
  const panText = body.params?.pan ?? body.params?.card?.pan;
  const cardTokenFrom = body.params?.card?.card_token_from;
  if (panText === undefined && cardTokenFrom !== undefined) return cardOnFilePayFlow(runtime, body, cardTokenFrom);
  const { payment } = body;
  const bankAccount = body.params?.bank_account;
  const common = {
    paymentToken: payment.token,
    operation: 'pay' as const,
    amountMinor: payment.gateway_amount,
    currency: payment.gateway_currency,
    processingUrl: body.processing_url,
    callbackUrl: body.callback_url,
    merchantPrivateKey: payment.merchant_private_key,
    needConfirmation: body.params?.need_confirmation === true,
  };
  if (panText === undefined && bankAccount && body.settings.sandbox === true) {
    const fingerprint = requestFingerprint(runtime.keys, ['pay-transfer', payment.gateway_amount, payment.gateway_currency, body.processing_url]);
    const recorded = await recordOnce(runtime, { ...common, fingerprint, decision: { scenario: 'status_check_approved' }, panText: undefined });
    const transfer = 'transaction' in recorded ? firstAnswerOf(runtime, recorded.transaction) : recorded;
    return { ...transfer, requisites: requisitesFor(bankAccount.requisite_type, payment.token) };
  }
  const fingerprint = requestFingerprint(runtime.keys, [
    'pay',
    payment.gateway_amount,
    payment.gateway_currency,
    panText && panDigitsOf(panText),
    body.processing_url,
  ]);
  const recorded = await recordOnce(runtime, {
    ...common,
    fingerprint,
    decision: decideCard(panText, 'pay', body.settings.sandbox, body.params?.expires),
    panText,
  });
  if (!('transaction' in recorded)) return recorded;
  const { transaction } = recorded;
  if (behaviourOf(transaction)?.firstAnswer === 'timeout') {
    // The provider keeps the caller waiting past its response_timeout; the transaction is already recorded.
    await sleepUnlessClosing(runtime, timeoutCardSleepMs(body.settings));
    return {
      result: false,
      code: PROVIDER_TIMEOUT_CODE,
      error: 'sandbox provider did not answer within response_timeout',
      gateway_token: transaction.gatewayToken,
    };
  }
  return withRecurringToken(runtime, body, transaction, firstAnswerOf(runtime, transaction));
}

// Section 4: a payout is final at once (approved or declined), answered in the format of /pay.
export async function payoutFlow(runtime: SandboxRuntime, body: PayoutBodyInput): Promise<AdapterAnswerBody> {
  const refusal = offOriginRefusal(runtime, { callback_url: body.callback_url });
  if (refusal !== null) return refusal;
  const amountMinor = body.params?.amount ?? body.payment.gateway_amount;
  const currency = body.params?.currency ?? body.payment.gateway_currency;
  if (amountMinor === undefined) return { result: false, error: 'payout needs params.amount (or payment.gateway_amount)' };
  if (currency === undefined) return { result: false, error: 'payout needs params.currency (or payment.gateway_currency)' };
  const panText = body.params?.card?.pan ?? body.params?.pan;
  // A payout to a phone number (sbp) or a bank account carries no card: the sandbox bank approves it at once.
  const toRequisite = panText === undefined && body.settings.sandbox === true && ['sbp', 'account'].includes(body.params?.bank_account?.requisite_type ?? '');
  const recorded = await recordOnce(runtime, {
    paymentToken: body.payment.token,
    operation: 'payout',
    fingerprint: requestFingerprint(runtime.keys, ['payout', amountMinor, currency, panText && panDigitsOf(panText)]),
    decision: toRequisite ? { scenario: 'payout_approved' } : decideCard(panText, 'payout', body.settings.sandbox),
    panText,
    amountMinor,
    currency,
    processingUrl: null,
    callbackUrl: body.callback_url ?? null,
    merchantPrivateKey: null,
  });
  return 'transaction' in recorded ? finalAnswerOf(recorded.transaction) : recorded;
}
