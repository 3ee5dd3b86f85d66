import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBulkPayments } from '../../support/bulk-payments.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';

const engines = await testEngines();
const FIRST = '2026-11-01T00:00:00Z'; // bulk payment i is created i minutes later
const BULK = 2_500; // every tenth a payout: 2,250 payments and 250 payouts, more than two export pages

type Rows = string[][];
const rowsOf = (body: string): Rows =>
  body
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));

describe.each(engines)('CSV exports on %s', (engine) => {
  let harness: Harness;
  let alice: TestMerchant;
  let bob: TestMerchant;

  beforeAll(async () => {
    harness = await startHarness(engine);
    alice = await harness.createMerchant('Alice');
    bob = await harness.createMerchant('Bob');
    await insertBulkPayments(harness.database, { merchantId: alice.id, environment: 'production', count: BULK, seed: 'alice', firstCreatedAt: FIRST });
    await insertBulkPayments(harness.database, { merchantId: alice.id, environment: 'sandbox', count: 7, seed: 'alice-test', firstCreatedAt: FIRST });
    await insertBulkPayments(harness.database, { merchantId: bob.id, environment: 'production', count: 30, seed: 'bob', firstCreatedAt: FIRST });
    const { db } = harness.database;
    // One of Alice's payments with a card mask and a product a spreadsheet would run as a formula.
    await db.execute(sql`update payments set card_mask = '411111******1111', product = '=HYPERLINK("x")'
      where merchant_id = ${alice.id} and token = md5('alice' || '1')`);
    // A refund and a captured payment's ledger entries for each merchant's first payment.
    for (const seed of ['alice', 'bob']) {
      await db.execute(sql`insert into refunds (token, payment_id, merchant_id, environment, amount_minor, currency, status, created_at)
        select ${`ref-${seed}`}, id, merchant_id, environment, 400, 'USD', 'approved', '2026-11-02T00:00:00Z' from payments where token = md5(${seed} || '1')`);
      await db.execute(sql`with captured as (insert into ledger_transactions (merchant_id, environment, currency, kind, payment_id, created_at)
          select merchant_id, environment, 'USD', 'payment_captured', id, '2026-11-02T00:00:00Z' from payments where token = md5(${seed} || '1') returning id)
        insert into ledger_entries (transaction_id, account, amount_minor)
        select id, account, amount from captured, (values ('customers', -1000), ('available', 970), ('fees', 30)) as entry(account, amount)`);
    }
  });
  afterAll(async () => harness?.close());

  const exportOf = (key: string, kind: string, query = 'from=2026-11-01&to=2026-12-01') =>
    harness.merchantRequest(key, { method: 'GET', url: `/api/v1/exports/${kind}.csv?${query}` });

  it("streams every payment of the key's merchant and environment, and none of another's", async () => {
    const response = await exportOf(alice.productionKey, 'payments');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="payrail-payments-production.csv"');
    const rows = rowsOf(response.body);
    expect(rows[0]?.slice(0, 4)).toEqual(['token', 'created_at', 'finalized_at', 'status']);
    expect(rows).toHaveLength(1 + BULK - BULK / 10);
    const payouts = rowsOf((await exportOf(alice.productionKey, 'payouts')).body);
    expect(payouts).toHaveLength(1 + BULK / 10);
    expect(rowsOf((await exportOf(alice.sandboxKey, 'payments')).body)).toHaveLength(1 + 7 - 0);
    const bobRows = rowsOf((await exportOf(bob.productionKey, 'payments')).body);
    expect(bobRows).toHaveLength(1 + 27);
    const aliceTokens = new Set(rows.map((row) => row[0]));
    expect(bobRows.slice(1).some((row) => aliceTokens.has(row[0]))).toBe(false);
  });

  it('keeps to the range, shows card numbers only masked and neutralises formulas', async () => {
    const firstHour = rowsOf((await exportOf(alice.productionKey, 'payments', 'from=2026-11-01T00:00:00Z&to=2026-11-01T01:00:00Z')).body);
    expect(firstHour).toHaveLength(1 + 54); // minutes 1 … 59, less the payouts (10, 20, … 50)
    const body = (await exportOf(alice.productionKey, 'payments')).body;
    expect(body).toContain('411111******1111');
    expect(
      rowsOf(body)
        .flat()
        .filter((field) => /^[0-9 ]{13,23}$/.test(field)),
    ).toEqual([]); // no field is a card number
    expect(body).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it("exports refunds and ledger entries of the key's merchant only", async () => {
    const refunds = rowsOf((await exportOf(alice.productionKey, 'refunds')).body);
    expect(refunds).toHaveLength(2);
    expect(refunds[1]?.slice(0, 2)).toEqual(['ref-alice', expect.stringMatching(/^[0-9a-f]{32}$/)]);
    const ledger = rowsOf((await exportOf(alice.productionKey, 'ledger-entries')).body);
    expect(ledger[0]).toEqual([
      'transaction_id',
      'entry_id',
      'created_at',
      'kind',
      'currency',
      'account',
      'amount_minor',
      'payment_token',
      'refund_token',
      'dispute_token',
    ]);
    expect(ledger.slice(1).map((row) => [row[3], row[5], row[6]])).toEqual([
      ['payment_captured', 'customers', '-1000'],
      ['payment_captured', 'available', '970'],
      ['payment_captured', 'fees', '30'],
    ]);
    expect(rowsOf((await exportOf(alice.sandboxKey, 'ledger-entries')).body)).toHaveLength(1);
  });

  it.each([
    ['from=2026-11-01', 422],
    ['from=2026-12-01&to=2026-11-01', 422],
    ['from=2026-01-01&to=2027-01-03', 422],
    ['from=yesterday&to=2026-11-01', 422],
    ['from=2026-11-01&to=2026-12-01&merchantId=2', 422],
  ])('refuses the range %s', async (query, status) => {
    const response = await exportOf(alice.productionKey, 'payments', query);
    expect(response.statusCode).toBe(status);
    expect(response.json().success).toBe(false);
  });

  it('answers 401 without a merchant key', async () => {
    expect((await harness.app.inject({ method: 'GET', url: '/api/v1/exports/payments.csv?from=2026-11-01&to=2026-12-01' })).statusCode).toBe(401);
  });

  it('exports every merchant through the admin API, with merchant and environment columns', async () => {
    const admin = (query: string, kind = 'payments') =>
      harness.app.inject({ method: 'GET', url: `/api/admin/v1/exports/${kind}.csv?${query}`, headers: { authorization: `Bearer ${harness.adminKey}` } });
    const all = rowsOf((await admin('from=2026-11-01&to=2026-12-01')).body);
    expect(all[0]?.slice(0, 3)).toEqual(['merchant_id', 'environment', 'token']);
    expect(all).toHaveLength(1 + (BULK - BULK / 10) + 7 + 27);
    const bobOnly = rowsOf((await admin(`from=2026-11-01&to=2026-12-01&merchantId=${bob.id}`)).body);
    expect(new Set(bobOnly.slice(1).map((row) => row[0]))).toEqual(new Set([String(bob.id)]));
    const ledger = rowsOf((await admin('from=2026-11-01&to=2026-12-01&environment=production', 'ledger-entries')).body);
    expect(ledger).toHaveLength(1 + 6);
    expect(
      (await harness.merchantRequest(alice.productionKey, { method: 'GET', url: '/api/admin/v1/exports/payments.csv?from=2026-11-01&to=2026-12-01' }))
        .statusCode,
    ).toBe(401);
  });
});
