import { sql } from 'drizzle-orm';
import { randomHex } from '../../src/lib/crypto.ts';
import type { CreatePaymentRequest } from '../../src/merchant-api/payments/create-request.ts';
import type { Db } from '../../src/store/database.ts';

const PAYMENT_TOKEN_BYTES = 16; // as Payrail's create-payment flow

// Both drivers (node-postgres and PGlite) answer a raw query with { rows }.
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

// The one statement a payment needs: the columns and values Payrail's createPayment writes, as raw SQL.
export async function insertPaymentRaw(
  db: Db,
  merchantId: number,
  request: CreatePaymentRequest,
  expiresAt: Date | null,
): Promise<{ id: number; token: string }> {
  const inserted = await db.execute(sql`
    insert into payments (
      token, merchant_id, environment, operation_type, request_variant, status, product,
      amount_minor, currency, gateway_amount_minor, gateway_currency, callback_url,
      redirect_success_url, redirect_fail_url, pending_url, extra_return_param, order_number,
      locale, expires_at, recurring, recurring_token, wallet_token, need_confirmation, merchant_url,
      card_mask, card_holder, card_expiry_month, card_expiry_year, customer, recurring_data, bank_account
    ) values (
      ${randomHex(PAYMENT_TOKEN_BYTES)}, ${merchantId}, 'sandbox', 'pay', ${request.variant}, 'init', ${request.product},
      ${request.amountMinor}, ${request.currency}, ${request.amountMinor}, ${request.currency}, ${request.callbackUrl},
      ${request.redirectSuccessUrl}, ${request.redirectFailUrl}, ${request.pendingUrl},
      ${request.extraReturnParam}, ${request.orderNumber},
      ${request.locale}, ${expiresAt?.toISOString() ?? null}, ${request.recurring}, ${request.recurringToken},
      ${request.walletToken}, ${request.needConfirmation}, ${request.merchantUrl},
      null, null, null, null, null, null, null
    ) returning id, token`);
  const [row] = rowsOf<{ id: string | number; token: string }>(inserted);
  if (!row) throw new Error('payment insert returned no row');
  return { id: Number(row.id), token: row.token };
}
