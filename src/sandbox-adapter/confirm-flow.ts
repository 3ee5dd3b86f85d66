import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../platform/database.ts';
import { sandboxTransactions } from './store-schema.ts';
import type { AdapterAnswerBody, SandboxRuntime } from './runtime.ts';
import type { ConfirmRequestBodyInput, DeclineRequestBodyInput } from './schemas.ts';
import { findByPaymentToken, type SandboxTransaction } from './transactions-repo.ts';

// Two-step payments at the sandbox provider: a /pay with params.need_confirmation that the card approves only
// authorizes its amount (the transaction is approved and awaiting). confirm_request captures it, wholly or in part
// (amount_minor becomes the captured amount, which later refunds draw on); decline_request voids it. Each is done
// once, by a conditional UPDATE, so concurrent requests through several processes settle it once; a repeat of a
// done request is answered approved again, the other one is refused with the reason.

// Payrail holds an authorization at most 720 hours (PAYRAIL_AUTHORIZATION_HOLD_HOURS) before it voids it: the
// sandbox keeps a two-step transaction a day longer, so that void still finds it.
export const AUTHORIZATION_TTL_MS = 31 * 24 * 60 * 60 * 1000;
const VOIDED_REASON = 'the authorization was voided (decline_request)';
const CHANGE_ATTEMPTS_MAX = 3; // a concurrent request may settle the authorization between the read and the UPDATE
const UNKNOWN_TRANSACTION = 'unknown transaction: payment.token is not a sandbox payment';

type Decision = { refusal: string } | 'done' | 'change';

export async function confirmRequestFlow(runtime: SandboxRuntime, body: ConfirmRequestBodyInput): Promise<AdapterAnswerBody> {
  const amountMinor = body.payment.amount;
  return settleOnce(runtime.db, body, (transaction) => decideConfirm(transaction, amountMinor), {
    change: (db, transaction) => capture(db, transaction, amountMinor),
    answer: (transaction) => approvedAnswer(transaction, transaction.amountMinor),
  });
}

export async function declineRequestFlow(runtime: SandboxRuntime, body: DeclineRequestBodyInput): Promise<AdapterAnswerBody> {
  return settleOnce(runtime.db, body, decideDecline, {
    change: (db, transaction) => voidAuthorization(db, transaction),
    answer: (transaction) => approvedAnswer(transaction, transaction.amountMinor),
  });
}

function decideConfirm(transaction: SandboxTransaction, amountMinor: number): Decision {
  if (transaction.confirmation === 'confirmed') {
    return amountMinor === transaction.amountMinor ? 'done' : { refusal: `the authorization was already captured with amount ${transaction.amountMinor}` };
  }
  if (transaction.confirmation === 'voided') return { refusal: 'the authorization was voided; nothing can be captured' };
  if (transaction.status !== 'approved') return { refusal: `the authorization is ${transaction.status}; only an approved one can be captured` };
  if (amountMinor > transaction.amountMinor) return { refusal: `amount ${amountMinor} exceeds the authorized amount ${transaction.amountMinor}` };
  return 'change';
}

function decideDecline(transaction: SandboxTransaction): Decision {
  if (transaction.confirmation === 'voided') return 'done';
  if (transaction.confirmation === 'confirmed') return { refusal: 'the authorization was already captured; refund it instead' };
  if (transaction.status !== 'approved') return { refusal: `the authorization is ${transaction.status}; only an approved one can be voided` };
  return 'change';
}

interface Settlement {
  change(db: Db, transaction: SandboxTransaction): Promise<SandboxTransaction | null>; // null: it was no longer awaiting
  answer(transaction: SandboxTransaction): AdapterAnswerBody;
}

async function settleOnce(
  db: Db,
  body: ConfirmRequestBodyInput | DeclineRequestBodyInput,
  decide: (transaction: SandboxTransaction) => Decision,
  settlement: Settlement,
): Promise<AdapterAnswerBody> {
  for (let attempt = 1; attempt <= CHANGE_ATTEMPTS_MAX; attempt += 1) {
    const transaction = await findByPaymentToken(db, body.payment.token);
    if (transaction === null) return declinedAnswer(null, UNKNOWN_TRANSACTION);
    const refusal = requestRefusal(transaction, body);
    if (refusal !== null) return declinedAnswer(transaction, refusal);
    const decision = decide(transaction);
    if (decision === 'done') return settlement.answer(transaction);
    if (decision !== 'change') return declinedAnswer(transaction, decision.refusal);
    const changed = await settlement.change(db, transaction);
    if (changed !== null) return settlement.answer(changed);
  }
  return declinedAnswer(null, 'the authorization changed during the request; try again');
}

// What makes a request name another transaction than the one it found, or one that is no authorization at all.
function requestRefusal(transaction: SandboxTransaction, body: ConfirmRequestBodyInput | DeclineRequestBodyInput): string | null {
  const gatewayToken = body.payment.gateway_token;
  if (gatewayToken !== undefined && gatewayToken !== null && gatewayToken !== transaction.gatewayToken) {
    return 'unknown transaction: gateway_token does not belong to payment.token';
  }
  if (transaction.operation !== 'pay' || transaction.confirmation === null) {
    return 'not an authorization: only a pay sent with params.need_confirmation is confirmed or declined';
  }
  if (body.payment.currency !== transaction.currency) return `currency ${body.payment.currency} is not the authorization's ${transaction.currency}`;
  return null;
}

const awaitingAndApproved = (paymentToken: string) =>
  and(
    eq(sandboxTransactions.paymentToken, paymentToken),
    eq(sandboxTransactions.confirmation, 'awaiting'),
    eq(sandboxTransactions.status, 'approved'),
    gt(sandboxTransactions.expiresAt, new Date()),
  );

async function capture(db: Db, transaction: SandboxTransaction, amountMinor: number): Promise<SandboxTransaction | null> {
  const changes = { confirmation: 'confirmed', amountMinor } as const;
  const rows = await db
    .update(sandboxTransactions)
    .set(changes)
    .where(awaitingAndApproved(transaction.paymentToken))
    .returning({ token: sandboxTransactions.paymentToken });
  return rows.length === 1 ? { ...transaction, ...changes } : null;
}

async function voidAuthorization(db: Db, transaction: SandboxTransaction): Promise<SandboxTransaction | null> {
  const changes = { confirmation: 'voided', status: 'declined', declineReason: VOIDED_REASON, callbackKeySealed: null, callbackDueAt: null } as const;
  const rows = await db
    .update(sandboxTransactions)
    .set(changes)
    .where(awaitingAndApproved(transaction.paymentToken))
    .returning({ token: sandboxTransactions.paymentToken });
  return rows.length === 1 ? { ...transaction, ...changes } : null;
}

function approvedAnswer(transaction: SandboxTransaction, amountMinor: number): AdapterAnswerBody {
  return { result: true, status: 'approved', gateway_token: transaction.gatewayToken, amount: amountMinor, currency: transaction.currency };
}

// A business refusal (spec 7.8): result true, status declined, the reason in details.
function declinedAnswer(transaction: SandboxTransaction | null, reason: string): AdapterAnswerBody {
  return { result: true, status: 'declined', ...(transaction === null ? {} : { gateway_token: transaction.gatewayToken }), details: reason };
}
