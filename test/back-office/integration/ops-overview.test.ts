import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness } from '../../support/harness.ts';
import { signedInOperator, signedInOperators } from '../../support/ops.ts';

const engines = await testEngines();

// The overview's figures are the flow's (test/payments/integration/operations-overview.test.ts); here: the page, by role.
describe.each(engines)('the console overview on %s', (engine) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness.close());

  it('shows every role the overview with its queues, and a red card for a payment stuck past its lifetime', async () => {
    const merchant = await harness.createMerchant('Stuck shop');
    const created = await harness.merchantRequest(merchant.sandboxKey, { method: 'POST', url: '/api/v1/payments', payload: validPaymentA });
    const token = created.json().token as string;
    await harness.database.db.execute(sql`update payments set expires_at = now() - interval '1 minute' where token = ${token}`);
    for (const [role, operator] of Object.entries(await signedInOperators(harness))) {
      const page = await operator.get('/ops?range=30d&environment=sandbox');
      expect(page.statusCode, role).toBe(200);
      expect(page.body).toContain('<h1>Overview</h1>');
      expect(page.body).toMatch(/<div class="card alert" id="stuck-card"><p>Payments stuck past their lifetime<\/p><p class="figure">1<\/p>/);
      expect(page.body).toContain(`/ops/payments/${token}`);
      expect(page.body).toContain('Outbox per topic');
    }
  });

  it('takes a chosen range and refuses one that ends before it starts, in the page', async () => {
    const operator = await signedInOperator(harness, { role: 'finance' });
    const chosen = await operator.get('/ops?from=2026-11-01&to=2026-11-27&environment=production');
    expect(chosen.statusCode).toBe(200);
    expect(chosen.body).toContain('2026-11-01 to 2026-11-27');
    const refused = await operator.get('/ops?from=2026-11-27&to=2026-11-01');
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('role="alert"');
  });
});
