import { and, eq, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { randomHex } from '../../platform/lib/crypto.ts';
import type { Db } from '../../platform/database.ts';
import type { MerchantScope, PaymentRow } from './payments-repo.ts';
import { payments } from './schema.ts';

// Recurring series (spec 2.1 recurring, recurringToken, walletToken, recurring_data): a first payment approved with
// recurring: true and the provider's recurring_gateway_token is issued Payrail's own tokens, and later charges of the
// series are counted on its row (last_recurring_charge_at).

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type DbOrTx = Db | Tx;

const ISSUED_TOKEN_BYTES = 16; // 32 lowercase hex characters, like payment tokens
const ISSUED_TOKEN_PATTERN = /^[0-9a-f]{32}$/;
// The statuses of a first payment whose tokens charge: approved, or approved and refunded since (the card stays on file).
const CHARGEABLE_SERIES_STATUSES = ['approved', 'refunded'] as const;

interface ApprovalValues {
  approved: SQL; // true when the status written is approved
  reportedGatewayToken: SQL; // the recurring_gateway_token this very write stores (null: the one already stored)
  now: SQL;
  recurringToken: SQL; // fresh tokens, used only when this write starts the series
  walletToken: SQL;
}

// The SET entries of a status write that issue the tokens of a series as its first payment is approved: once (an
// issued token is never replaced), only for a recurring payment, and only when the provider gave its own token.
// Used by both status writers (status-writer.ts and the outcome statement), so no approval path misses it.
function seriesColumnsOnApproval(values: ApprovalValues) {
  const starts = sql`(${values.approved} and ${payments.issuedRecurringToken} is null and ${payments.recurring}
    and coalesce(${values.reportedGatewayToken}, ${payments.recurringGatewayToken}) is not null)`;
  return {
    issuedRecurringToken: sql`case when ${starts} then ${values.recurringToken} else ${payments.issuedRecurringToken} end`,
    issuedWalletToken: sql`case when ${starts} then ${values.walletToken} else ${payments.issuedWalletToken} end`,
    lastRecurringChargeAt: sql`case when ${starts} then ${values.now} else ${payments.lastRecurringChargeAt} end`,
  };
}

// The form of the prepared statements that write a status (the outcome statement, a locked move: status-move-statement.ts):
// placeholders, filled by seriesPlaceholderValues (and the reported recurringGatewayToken, `to`) at each execution.
export function seriesColumnsOnOutcome(value: (name: string) => Placeholder, now: SQL) {
  return seriesColumnsOnApproval({
    approved: sql`${value('to')}::text = 'approved'`,
    reportedGatewayToken: sql`${value('recurringGatewayToken')}::text`,
    now,
    recurringToken: sql`${value('seriesRecurringToken')}::text`,
    walletToken: sql`${value('seriesWalletToken')}::text`,
  });
}

export function seriesPlaceholderValues(approved: boolean): { seriesRecurringToken: string | null; seriesWalletToken: string | null } {
  if (!approved) return { seriesRecurringToken: null, seriesWalletToken: null };
  return { seriesRecurringToken: randomHex(ISSUED_TOKEN_BYTES), seriesWalletToken: randomHex(ISSUED_TOKEN_BYTES) };
}

export type SeriesToken = { recurringToken: string } | { walletToken: string };

// The first payment a token names, within the merchant's own environment, while its tokens may charge; null
// otherwise (unknown, another merchant's, or its payment no longer approved). `lock`: FOR UPDATE, inside a transaction.
export async function findChargeableSeries(db: DbOrTx, scope: MerchantScope, token: SeriesToken, lock = false): Promise<PaymentRow | null> {
  const value = 'recurringToken' in token ? token.recurringToken : token.walletToken;
  if (!ISSUED_TOKEN_PATTERN.test(value)) return null;
  const column = 'recurringToken' in token ? payments.issuedRecurringToken : payments.issuedWalletToken;
  const query = db
    .select()
    .from(payments)
    .where(
      and(
        eq(column, value),
        eq(payments.merchantId, scope.merchantId),
        eq(payments.environment, scope.environment),
        inArray(payments.status, CHARGEABLE_SERIES_STATUSES),
        sql`${payments.recurringGatewayToken} is not null`,
      ),
    );
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

// Records a charge of the series at `at`, only while its last charge is still `expected` (what the caller decided
// from): of two concurrent charges within one window, one moves it and the other finds nothing to move.
// `expected` undefined: recorded whatever the last charge was (a series without a window).
export async function claimSeriesCharge(db: DbOrTx, seriesId: number, expected: Date | null | undefined, at: Date): Promise<boolean> {
  const unchanged =
    expected === undefined ? sql`true` : sql`${payments.lastRecurringChargeAt} is not distinct from ${expected?.toISOString() ?? null}::timestamptz`;
  const rows = await db
    .update(payments)
    .set({ lastRecurringChargeAt: at })
    .where(and(eq(payments.id, seriesId), unchanged))
    .returning({ id: payments.id });
  return rows.length === 1;
}

// A charge that was declined at once gives its place back, unless another charge has been recorded since.
export async function releaseSeriesCharge(db: DbOrTx, seriesId: number, claimedAt: Date, previous: Date | null): Promise<void> {
  await db
    .update(payments)
    .set({ lastRecurringChargeAt: previous })
    .where(and(eq(payments.id, seriesId), eq(payments.lastRecurringChargeAt, claimedAt)));
}
