import { createHash } from 'node:crypto';
import { Secret } from '../lib/secret.ts';
import { maskPanText } from '../lib/redact.ts';
import {
  behaviourOf,
  finalAnswerOf,
  newGatewayToken,
  scheduleAsyncApproval,
  sleepUnlessClosing,
  type AdapterAnswerBody,
  type SandboxRuntime,
} from './runtime.ts';
import type { PayBodyInput, PayoutBodyInput } from './schemas.ts';
import type { SandboxTransaction } from './store.ts';
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

const RESPONSE_TIMEOUT_S_DEFAULT = 15; // spec 2.10
// The timeout card sleeps response_timeout + 1 s; a bounded sleep keeps a misconfigured timeout from pinning a request.
const TIMEOUT_CARD_SLEEP_MS_MAX = 120_000;
const TIMEOUT_CARD_OVERSHOOT_MS = 1000;
const PROVIDER_TIMEOUT_CODE = 408; // spec 7.5

type CardDecision = { scenario: SandboxScenario } | { scenario: null; declineReason: string };

// spec 1: test cards work in sandbox only. settings.sandbox must be true; absent counts as production (fail closed).
function decideCard(panText: string | undefined, operation: SandboxOperation, sandbox: boolean | undefined): CardDecision {
  if (panText === undefined) {
    return { scenario: null, declineReason: operation === 'pay' ? DECLINE_REASONS.cardDataMissing : unknownCardReason('payout') };
  }
  const panDigits = panDigitsOf(panText);
  if (sandbox !== true) {
    const reason = isSandboxTestCard(panDigits) ? DECLINE_REASONS.sandboxCardInProduction : DECLINE_REASONS.realCardInSandboxAdapter;
    return { scenario: null, declineReason: reason };
  }
  const scenario = sandboxScenarioOf(panDigits, operation);
  return scenario === null ? { scenario: null, declineReason: unknownCardReason(operation) } : { scenario };
}

function fingerprintOf(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
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
  keys: { signKey: string; merchantPrivateKey: string } | null;
}

function recordTransaction(runtime: SandboxRuntime, input: NewTransaction): SandboxTransaction {
  const behaviour = input.decision.scenario === null ? null : SCENARIO_BEHAVIOURS[input.decision.scenario];
  const waitsForEvent = behaviour !== null && behaviour.callback !== 'none';
  const transaction: SandboxTransaction = {
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
    createdAtMs: runtime.store.nowMs(),
    // Without a later event (3-D Secure, callback) the provider's own record is final at once,
    // even when the first answer says pending (status-checker and timeout cards).
    status: behaviour === null ? 'declined' : waitsForEvent ? 'pending' : behaviour.finalStatus,
    declineReason: 'declineReason' in input.decision ? input.decision.declineReason : waitsForEvent ? null : (behaviour?.declineReason ?? null),
    refundedMinor: 0,
    refundCount: 0,
    callbackKeys:
      waitsForEvent && input.keys !== null
        ? { signKey: new Secret(input.keys.signKey), merchantPrivateKey: new Secret(input.keys.merchantPrivateKey) }
        : null,
  };
  runtime.store.insert(transaction);
  return transaction;
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
  return { ...pending, details: 'waiting for the provider' };
}

// Idempotent on payment.token: the same request again gets the current answer; a different one is refused.
function existingAnswer(runtime: SandboxRuntime, paymentToken: string, fingerprint: string): AdapterAnswerBody | null {
  const existing = runtime.store.byPaymentToken(paymentToken);
  if (existing === null) return null;
  if (existing.requestFingerprint !== fingerprint) {
    return { result: false, error: 'payment.token is already used by a different sandbox request' };
  }
  return firstAnswerOf(runtime, existing);
}

function responseTimeoutMsOf(seconds: number | undefined): number {
  const timeoutMs = (seconds ?? RESPONSE_TIMEOUT_S_DEFAULT) * 1000 + TIMEOUT_CARD_OVERSHOOT_MS;
  return Math.min(timeoutMs, TIMEOUT_CARD_SLEEP_MS_MAX);
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
  const panText = body.params?.pan ?? body.params?.card?.pan;
  const { payment } = body;
  const bankAccount = body.params?.bank_account;
  if (panText === undefined && bankAccount && body.settings.sandbox === true) {
    const fingerprintOfTransfer = fingerprintOf(['pay-transfer', payment.gateway_amount, payment.gateway_currency, body.processing_url]);
    const repeatedTransfer = existingAnswer(runtime, payment.token, fingerprintOfTransfer);
    const transfer =
      repeatedTransfer ??
      firstAnswerOf(
        runtime,
        recordTransaction(runtime, {
          paymentToken: payment.token,
          operation: 'pay',
          fingerprint: fingerprintOfTransfer,
          decision: { scenario: 'status_check_approved' },
          panText: undefined,
          amountMinor: payment.gateway_amount,
          currency: payment.gateway_currency,
          processingUrl: body.processing_url,
          callbackUrl: body.callback_url,
          keys: { signKey: body.settings.sign_key, merchantPrivateKey: payment.merchant_private_key },
        }),
      );
    return { ...transfer, requisites: requisitesFor(bankAccount.requisite_type, payment.token) };
  }
  const fingerprint = fingerprintOf(['pay', payment.gateway_amount, payment.gateway_currency, panText && panDigitsOf(panText), body.processing_url]);
  const repeated = existingAnswer(runtime, payment.token, fingerprint);
  if (repeated !== null) return repeated;

  const transaction = recordTransaction(runtime, {
    paymentToken: payment.token,
    operation: 'pay',
    fingerprint,
    decision: decideCard(panText, 'pay', body.settings.sandbox),
    panText,
    amountMinor: payment.gateway_amount,
    currency: payment.gateway_currency,
    processingUrl: body.processing_url,
    callbackUrl: body.callback_url,
    keys: { signKey: body.settings.sign_key, merchantPrivateKey: payment.merchant_private_key },
  });
  const behaviour = behaviourOf(transaction);
  if (behaviour?.callback === 'after_delay') scheduleAsyncApproval(runtime, transaction);
  if (behaviour?.firstAnswer === 'timeout') {
    // The provider keeps the caller waiting past its response_timeout; the transaction is already recorded.
    await sleepUnlessClosing(runtime, responseTimeoutMsOf(body.settings.gateway_settings?.methods?.pay?.response_timeout));
    return {
      result: false,
      code: PROVIDER_TIMEOUT_CODE,
      error: 'sandbox provider did not answer within response_timeout',
      gateway_token: transaction.gatewayToken,
    };
  }
  return firstAnswerOf(runtime, transaction);
}

// Section 4: a payout is final at once (approved or declined), answered in the format of /pay.
export async function payoutFlow(runtime: SandboxRuntime, body: PayoutBodyInput): Promise<AdapterAnswerBody> {
  const amountMinor = body.params?.amount ?? body.payment.gateway_amount;
  const currency = body.params?.currency ?? body.payment.gateway_currency;
  if (amountMinor === undefined) return { result: false, error: 'payout needs params.amount (or payment.gateway_amount)' };
  if (currency === undefined) return { result: false, error: 'payout needs params.currency (or payment.gateway_currency)' };
  const panText = body.params?.card?.pan ?? body.params?.pan;
  const fingerprint = fingerprintOf(['payout', amountMinor, currency, panText && panDigitsOf(panText)]);
  const repeated = existingAnswer(runtime, body.payment.token, fingerprint);
  if (repeated !== null) return repeated;

  const transaction = recordTransaction(runtime, {
    paymentToken: body.payment.token,
    operation: 'payout',
    fingerprint,
    decision: decideCard(panText, 'payout', body.settings.sandbox),
    panText,
    amountMinor,
    currency,
    processingUrl: null,
    callbackUrl: body.callback_url ?? null,
    keys: null,
  });
  return finalAnswerOf(transaction);
}
