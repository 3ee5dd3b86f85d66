// The ceiling Payrail is measured against: Fastify 5 over HTTPS, the variant A body schema checked by
// Fastify's own Ajv, and the one INSERT a payment needs. No auth lookup, idempotency, hooks or logging.
// Configured by the same environment variables as Payrail (PORT, HOST, PAYRAIL_DATA_DIR, DATABASE_URL).
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import type { Static } from 'typebox';
import { loadConfig } from '../src/config.ts';
import { buildCurrencyTable } from '../src/domain/currencies.ts';
import { randomHex } from '../src/lib/crypto.ts';
import { loadTls } from '../src/lib/tls.ts';
import { CreatePaymentResponseA } from '../src/merchant-api/payments/responses.ts';
import { CreatePaymentBodyA } from '../src/merchant-api/payments/schemas.ts';
import { addPaymentFormats } from '../src/merchant-api/payments/validate-create.ts';
import { openDatabase, type Database } from '../src/store/database.ts';

const PAYMENT_TOKEN_BYTES = 16; // as Payrail's create-payment flow
const BODY_LIMIT_BYTES = 1024 * 1024; // as Payrail's app

type BodyA = Static<typeof CreatePaymentBodyA>;

// Both drivers (node-postgres and PGlite) answer a raw query with { rows }.
function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const database: Database = config.databaseUrl
    ? await openDatabase({ engine: 'postgres', url: config.databaseUrl, poolMax: config.dbPoolMax })
    : await openDatabase({ engine: 'pglite', dataDir: join(config.dataDir, 'pglite') });
  await database.migrate();
  const merchantRows = rowsOf<{ id: string | number }>(
    await database.db.execute(sql`insert into merchants (name) values ('Bench baseline') returning id`),
  );
  const merchantId = Number(merchantRows[0]?.id);
  const currencies = buildCurrencyTable(config.extraCurrencies);
  const tls = await loadTls(config.dataDir, null, null);

  const app = Fastify({
    https: { cert: tls.cert, key: tls.key },
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    ajv: {
      customOptions: { allErrors: true, removeAdditional: false, coerceTypes: 'array', useDefaults: true },
      plugins: [(ajv) => addPaymentFormats(ajv, currencies)],
    },
  });

  app.get('/health', async () => {
    await database.db.execute(sql`select 1`);
    return { status: 'ok' };
  });

  app.post<{ Body: BodyA }>(
    '/api/v1/payments',
    { schema: { body: CreatePaymentBodyA, response: { 200: CreatePaymentResponseA } } },
    async (request) => {
      const body = request.body;
      const amountMinor = Number(body.amount);
      const locale = body.locale ?? 'en';
      const expiresAt = new Date(Date.now() + (body.expires_at ?? config.paymentExpiryMinutes) * 60_000);
      const inserted = await database.db.execute(sql`
        insert into payments (
          token, merchant_id, environment, operation_type, request_variant, status, product,
          amount_minor, currency, gateway_amount_minor, gateway_currency, callback_url,
          redirect_success_url, redirect_fail_url, pending_url, extra_return_param, order_number,
          locale, expires_at, recurring, recurring_token, wallet_token, need_confirmation, merchant_url,
          card_mask, card_holder, card_expiry_month, card_expiry_year, customer, recurring_data, bank_account
        ) values (
          ${randomHex(PAYMENT_TOKEN_BYTES)}, ${merchantId}, 'sandbox', 'pay', 'A', 'init', ${body.product},
          ${amountMinor}, ${body.currency}, ${amountMinor}, ${body.currency}, ${body.callbackUrl},
          ${body.redirectSuccessUrl ?? null}, ${body.redirectFailUrl ?? null}, ${body.pendingUrl ?? null},
          ${body.extraReturnParam ?? null}, ${body.orderNumber ?? null},
          ${locale}, ${expiresAt.toISOString()}, ${body.recurring ?? false}, ${body.recurringToken ?? null},
          ${body.walletToken ?? null}, ${body.needConfirmation ?? false}, ${body.merchantUrl ?? null},
          null, null, null, null, null, null, null
        ) returning id, token`);
      const token = String(rowsOf<{ token: string }>(inserted)[0]?.token);
      return {
        success: true as const,
        errors: [],
        token,
        processingUrl: `${config.publicUrl}/checkout/${token}?locale=${locale}`,
        payment: { amount: String(amountMinor), currency: body.currency, status: 'init' },
      };
    },
  );

  await app.listen({ host: config.host, port: config.port });
  const stop = () => {
    app
      .close()
      .then(() => database.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`baseline-server: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
