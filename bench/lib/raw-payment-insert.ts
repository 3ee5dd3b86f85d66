import { randomHex } from '../../src/platform/lib/crypto.ts';
import type { CreatePaymentRequest } from '../../src/payments/domain/payment-request.ts';
import type { Db } from '../../src/platform/database.ts';

const PAYMENT_TOKEN_BYTES = 16; // as Payrail's create-payment flow

// Both drivers (node-postgres and PGlite) answer a raw query with { rows }.
function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

const INSERT_TEXT = `
  insert into payments (
    token, merchant_id, environment, operation_type, request_variant, status, product,
    amount_minor, currency, gateway_amount_minor, gateway_currency, callback_url,
    redirect_success_url, redirect_fail_url, pending_url, extra_return_param, order_number,
    locale, expires_at, recurring, recurring_token, wallet_token, need_confirmation, merchant_url,
    card_mask, card_holder, card_expiry_month, card_expiry_year, customer, recurring_data, bank_account
  ) values (
    $1, $2, 'sandbox', 'pay', $3, 'init', $4, $5, $6, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
    $18, $19, null, null, null, null, null, null, null
  ) returning id, token`;

interface RawClient {
  query(config: { name?: string; text: string; values: unknown[] } | string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

// The one statement a payment needs, as the driver's own named prepared statement: the fastest single
// INSERT this engine does, so a ceiling Payrail's query layer can only approach.
export async function insertPaymentRaw(
  db: Db,
  merchantId: number,
  request: CreatePaymentRequest,
  expiresAt: Date | null,
): Promise<{ id: number; token: string }> {
  const values = [
    randomHex(PAYMENT_TOKEN_BYTES),
    merchantId,
    request.variant,
    request.product,
    request.amountMinor,
    request.currency,
    request.callbackUrl,
    request.redirectSuccessUrl,
    request.redirectFailUrl,
    request.pendingUrl,
    request.extraReturnParam,
    request.orderNumber,
    request.locale,
    expiresAt?.toISOString() ?? null,
    request.recurring,
    request.recurringToken,
    request.walletToken,
    request.needConfirmation,
    request.merchantUrl,
  ];
  const client = (db as unknown as { $client: RawClient }).$client;
  const isPostgresPool = typeof (client as { totalCount?: unknown }).totalCount === 'number';
  const inserted = isPostgresPool
    ? await client.query({ name: 'baseline_insert_payment', text: INSERT_TEXT, values })
    : await client.query(INSERT_TEXT, values);
  const [row] = rowsOf<{ id: string | number; token: string }>(inserted);
  if (!row) throw new Error('payment insert returned no row');
  return { id: Number(row.id), token: row.token };
}
