import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTransition, NO_FINAL_CHANGE } from '../../../src/payments/domain/payment-status.ts';
import { payments } from '../../../src/payments/store/schema.ts';
import { auditRowsOf } from '../../support/audit.ts';
import { transitionPayment } from '../../support/bare-transition.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { signedInOperators, type OpsClient } from '../../support/ops.ts';

const engines = await testEngines();

const PENDING_TO_APPROVED = decideTransition('pending', 'approved', NO_FINAL_CHANGE);

// The console's ledger: balances of every merchant, commissions per day, and the ledger check on demand (linked to
// what its violations name, recorded once in the audit log); role ledger (admin, finance), never support.
describe.each(engines)('console ledger pages on %s', (engine) => {
  let harness: Harness;
  let admin: OpsClient;
  let support: OpsClient;
  let finance: OpsClient;
  let merchantId: number;
  let brokenToken: string;

  const checkEvents = async () =>
    (await auditRowsOf(harness.database, { subjectType: 'ledger', action: 'ledger.check' })).map(({ actor, after }) => ({ actor, after }));

  const insertPayment = async (status: 'pending' | 'approved', amountMinor: number) => {
    const token = randomBytes(16).toString('hex');
    const [row] = await harness.database.db
      .insert(payments)
      .values({
        token,
        merchantId,
        environment: 'production',
        operationType: 'pay',
        requestVariant: 'A',
        status,
        product: 'Console ledger order',
        amountMinor,
        currency: 'EUR',
        gatewayAmountMinor: amountMinor,
        gatewayCurrency: 'EUR',
        locale: 'en',
        commissionPercentBp: 250, // 2.5 %
        commissionFixedMinor: 30,
      })
      .returning({ id: payments.id });
    if (!row) throw new Error('payment insert returned nothing');
    return { id: row.id, token };
  };

  beforeAll(async () => {
    harness = await startHarness(engine);
    ({ admin, support, finance } = await signedInOperators(harness));
    merchantId = (await harness.createMerchant('Ledger merchant')).id;
    const captured = await insertPayment('pending', 10_000); // 100.00 EUR: 2.80 EUR commission
    await harness.database.db.transaction((tx) => transitionPayment(tx, captured.id, PENDING_TO_APPROVED));
    brokenToken = (await insertPayment('approved', 5_000)).token; // approved without its capture posting: a violation
  });
  afterAll(async () => harness?.close());

  it('opens the ledger pages to admin and finance, never to support', async () => {
    for (const path of ['/ops/ledger', '/ops/ledger/commissions', `/ops/ledger?merchant=${merchantId}`]) {
      const statuses = [(await admin.get(path)).statusCode, (await finance.get(path)).statusCode, (await support.get(path)).statusCode];
      expect({ path, statuses }).toEqual({ path, statuses: [200, 200, 403] });
    }
  });

  it("shows each merchant's balances per environment and currency, one bounded page at a time", async () => {
    const page = await finance.get(`/ops/ledger?merchant=${merchantId}`);
    expect(page.body).toContain(`<a href="/ops/merchants/${merchantId}">${merchantId}</a></th><td>production</td><td>EUR</td>`);
    expect(page.body).toContain('97.20 EUR');
    expect((await finance.get('/ops/ledger?after=not-a-cursor')).statusCode).toBe(400);
    const past = await finance.get(`/ops/ledger?after=${encodeURIComponent(`${merchantId}:sandbox:ZZZ`)}`);
    expect(past.body).toContain('No balances');
  });

  it('sums the commissions earned per day, in a bounded range', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const page = await finance.get(`/ops/ledger/commissions?environment=production&from=${today}&to=${today}`);
    expect(page.body).toContain(`<th scope="row">${today}</th><td>EUR</td><td class="num">2.80 EUR</td>`);
    const sandbox = await finance.get(`/ops/ledger/commissions?environment=sandbox&from=${today}&to=${today}`);
    expect(sandbox.body).toContain('No commissions in this range');
    expect((await finance.get('/ops/ledger/commissions?from=2025-01-01&to=2025-12-31')).statusCode).toBe(400);
    expect((await finance.get('/ops/ledger/commissions?from=2025-02-30&to=2025-03-01')).statusCode).toBe(400);
  });

  it('runs the ledger check for finance, links each violation to its merchant and payment, and records the run once', async () => {
    const before = (await checkEvents()).length;
    const result = await finance.post('/ops/ledger/check', {}, '/ops/ledger');
    expect(result.statusCode).toBe(200);
    expect(result.body).toContain('postings_mismatch');
    expect(result.body).toContain(`href="/ops/payments/${brokenToken}"`);
    const found = Number(/(\d+) violations found/.exec(result.body)?.[1]);
    expect(found).toBeGreaterThan(0);
    const events = (await checkEvents()).slice(before);
    expect(events).toEqual([{ actor: `operator:${finance.operatorId}`, after: { violations: found } }]);
  });

  it('refuses a forged ledger check from support, and records nothing', async () => {
    const before = (await checkEvents()).length;
    expect((await support.post('/ops/ledger/check', {})).statusCode).toBe(403);
    expect((await checkEvents()).length).toBe(before);
  });
});
