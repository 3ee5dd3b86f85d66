import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../../src/platform/database.ts';
import type { Harness } from '../../support/harness.ts';

export const MAPPING = {
  gatewayToken: 'psp_reference',
  amount: 'gross',
  currency: 'ccy',
  fee: 'fee',
  status: 'state',
  date: 'booked_at',
  amountFormat: 'major',
  statuses: { SETTLED: 'approved', REFUSED: 'declined', REFUNDED: 'refunded' },
} as const;

export const HEADER = 'psp_reference,gross,ccy,fee,state,booked_at\n';

export function adminHeaders(harness: Harness): Record<string, string> {
  return { authorization: `Bearer ${harness.adminKey}` };
}

// A production gateway of the merchant (its adapter is never called here), with the settlement mapping saved.
export async function addSettlementGateway(harness: Harness, merchantId: number, alias = 'psp'): Promise<number> {
  const settings = {
    api_key: `ak_live_${randomBytes(8).toString('hex')}`,
    sign_key: randomBytes(16).toString('hex'),
    sandbox: false,
    host2host: true,
    validate_signature: true,
    gateway_settings: { processing_method: 'http_requests', full_link: 'https://psp.example/adapter', methods: { pay: { response_timeout: 5 } } },
  };
  const created = await harness.app.inject({
    method: 'POST',
    url: `/api/admin/v1/merchants/${merchantId}/gateways`,
    headers: adminHeaders(harness),
    payload: { alias, environment: 'production', settings },
  });
  if (created.statusCode !== 200) throw new Error(`gateway create failed: ${created.body}`);
  const gatewayId = created.json().gateway.id as number;
  const mapped = await harness.app.inject({
    method: 'PUT',
    url: `/api/admin/v1/gateways/${gatewayId}/settlement-columns`,
    headers: adminHeaders(harness),
    payload: { columns: MAPPING },
  });
  if (mapped.statusCode !== 200) throw new Error(`settlement columns refused: ${mapped.body}`);
  return gatewayId;
}

export interface SettledPayments {
  merchantId: number;
  gatewayId: number;
  count: number;
  tokenPrefix: string; // gateway tokens are prefix1 … prefixN
  finalizedFrom: string; // ISO; payment i is finalized i seconds later
  status?: string;
  commissionMinor?: number; // a fees ledger entry of this much per payment (none when 0)
}

// Payments straight into the table, each with a gateway token, an amount of 1000 + i % 500 EUR cents, and (with
// commissionMinor) a payment_captured ledger transaction whose fees entry is that commission.
export async function insertSettledPayments(database: Database, seed: SettledPayments): Promise<void> {
  const status = seed.status ?? 'approved';
  await database.db.execute(sql`
    insert into payments (token, merchant_id, environment, request_variant, status, product, amount_minor, currency, gateway_amount_minor,
      gateway_currency, locale, gateway_id, gateway_alias, gateway_token, finalized_at, captured_minor, card_mask)
    select md5(${seed.tokenPrefix} || i::text || ${seed.gatewayId}::text), ${seed.merchantId}, 'production', 'A', ${status}, 'Settled order',
      1000 + i % 500, 'EUR', 1000 + i % 500, 'EUR', 'en', ${seed.gatewayId}, 'psp', ${seed.tokenPrefix} || i::text,
      ${seed.finalizedFrom}::timestamptz + i * interval '1 second', 1000 + i % 500, '411111******1111'
    from generate_series(1, ${seed.count}::int) as i`);
  if (!seed.commissionMinor) return;
  await database.db.execute(sql`
    with captured as (
      insert into ledger_transactions (merchant_id, environment, currency, kind, payment_id)
      select merchant_id, environment, gateway_currency, 'payment_captured', id from payments
      where gateway_id = ${seed.gatewayId} and gateway_token like ${`${seed.tokenPrefix}%`}
      returning id)
    insert into ledger_entries (transaction_id, account, amount_minor) select id, 'fees', ${seed.commissionMinor} from captured`);
}

// The seeded payment i's amount as the file writes it (major units).
export function majorAmount(i: number, offsetMinor = 0): string {
  const minor = 1000 + (i % 500) + offsetMinor;
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

export function bookedAt(finalizedFrom: string, i: number): string {
  return new Date(new Date(finalizedFrom).getTime() + i * 1000).toISOString();
}

// A multipart/form-data body of the import form.
function importForm(gatewayId: number | string, csv: string | Buffer, fileName = 'settlement.csv'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----payrail${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="gatewayId"\r\n\r\n${gatewayId}\r\n`),
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${fileName}"\r\ncontent-type: text/csv\r\n\r\n`),
    typeof csv === 'string' ? Buffer.from(csv) : csv,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function importFile(harness: Harness, gatewayId: number | string, csv: string | Buffer, fileName?: string) {
  const form = importForm(gatewayId, csv, fileName);
  return harness.app.inject({
    method: 'POST',
    url: '/api/admin/v1/reconciliations',
    headers: { ...adminHeaders(harness), ...form.headers },
    payload: form.payload,
  });
}
