import { randomBase64Url } from '../platform/lib/crypto.ts';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../platform/database.ts';
import { sandboxTransactions } from './store-schema.ts';
import { finalAnswerOf, newGatewayToken, type AdapterAnswerBody, type SandboxRuntime } from './runtime.ts';
import { requestFingerprint } from './sandbox-keys.ts';
import type { PayBodyInput } from './schemas.ts';
import { findByPaymentToken, insertTransaction, type SandboxTransaction } from './transactions-repo.ts';

// Recurring payments at the sandbox provider (spec 2.8 params.recurring and card.card_token_from, 2.9
// recurring_gateway_token): an approved /pay that asked for recurring leaves its card on file and answers the
// token that names it; a later /pay naming that token in card.card_token_from is charged without card data.

const RECURRING_TOKEN_BYTES = 18;
// A series may run for years (recurring_data.days goes up to 3660): the card on file outlives the transaction TTL.
const CARD_ON_FILE_TTL_MS = 3660 * 24 * 60 * 60 * 1000;
const DIFFERENT_REQUEST = 'payment.token is already used by a different sandbox request';

const CARD_ON_FILE_REASONS = {
  unknownToken: 'unknown card_token_from: no card on file has this recurring token (or it expired)',
  production: 'the sandbox adapter charges cards on file in sandbox only (settings.sandbox must be true)',
} as const;

function newRecurringGatewayToken(): string {
  return `sbx_rc_${randomBase64Url(RECURRING_TOKEN_BYTES)}`;
}

// The answer to a /pay with params.recurring: true, once approved at once, names the card on file. (A 3-D Secure or
// asynchronously approved pay is approved after its answer: the sandbox keeps no card on file for it.)
export async function withRecurringToken(
  runtime: SandboxRuntime,
  body: PayBodyInput,
  transaction: SandboxTransaction,
  answer: AdapterAnswerBody,
): Promise<AdapterAnswerBody> {
  if (body.params?.recurring !== true || answer.status !== 'approved' || transaction.operation !== 'pay') return answer;
  const token = await keepCardOnFile(runtime.db, transaction.paymentToken);
  return token === null ? answer : { ...answer, recurring_gateway_token: token };
}

// One statement: the token is issued once (a concurrent repeat reads the same one) and the row kept as long as the card.
async function keepCardOnFile(db: Db, paymentToken: string): Promise<string | null> {
  const table = sandboxTransactions;
  const now = new Date();
  const keptUntil = new Date(now.getTime() + CARD_ON_FILE_TTL_MS).toISOString();
  const [row] = await db
    .update(table)
    .set({
      recurringGatewayToken: sql`coalesce(${table.recurringGatewayToken}, ${newRecurringGatewayToken()})`,
      expiresAt: sql`greatest(${table.expiresAt}, ${keptUntil}::timestamptz)`,
    })
    .where(and(eq(table.paymentToken, paymentToken), eq(table.operation, 'pay'), eq(table.status, 'approved'), gt(table.expiresAt, now)))
    .returning({ token: table.recurringGatewayToken });
  return row?.token ?? null;
}

async function findCardOnFile(db: Db, recurringGatewayToken: string): Promise<{ panMasked: string | null } | null> {
  const table = sandboxTransactions;
  const [row] = await db
    .select({ panMasked: table.panMasked })
    .from(table)
    .where(and(eq(table.recurringGatewayToken, recurringGatewayToken), eq(table.status, 'approved'), gt(table.expiresAt, new Date())));
  return row ?? null;
}

// A /pay with card.card_token_from and no card number: approved at once when the token names a card on file,
// declined with the reason otherwise. Idempotent on payment.token like every sandbox /pay.
export async function cardOnFilePayFlow(runtime: SandboxRuntime, body: PayBodyInput, cardTokenFrom: string): Promise<AdapterAnswerBody> {
  const { payment } = body;
  const fingerprint = requestFingerprint(runtime.keys, [
    'pay-card-on-file',
    payment.gateway_amount,
    payment.gateway_currency,
    cardTokenFrom,
    body.processing_url,
  ]);
  const onFile = body.settings.sandbox === true ? await findCardOnFile(runtime.db, cardTokenFrom) : null;
  const declineReason = body.settings.sandbox !== true ? CARD_ON_FILE_REASONS.production : onFile === null ? CARD_ON_FILE_REASONS.unknownToken : null;
  const recorded = await insertTransaction(
    runtime.db,
    {
      paymentToken: payment.token,
      gatewayToken: newGatewayToken('sbx'),
      operation: 'pay',
      scenario: onFile === null ? null : 'approved',
      requestFingerprint: fingerprint,
      amountMinor: payment.gateway_amount,
      currency: payment.gateway_currency,
      panMasked: onFile?.panMasked ?? null,
      processingUrl: body.processing_url,
      callbackUrl: body.callback_url,
      status: onFile === null ? 'declined' : 'approved',
      declineReason,
      callbackKeySealed: null,
      callbackDueAt: null,
    },
    runtime.transactionTtlMs,
  );
  if (recorded !== null) return finalAnswerOf(recorded);
  const existing = await findByPaymentToken(runtime.db, payment.token);
  if (existing === null || existing.requestFingerprint !== fingerprint) return { result: false, error: DIFFERENT_REQUEST };
  return finalAnswerOf(existing);
}
