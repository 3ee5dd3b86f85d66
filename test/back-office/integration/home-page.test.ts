import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldDailyStatDeltas } from '../../../src/payments/index.ts';
import { createPendingPayment, movePayment } from '../../support/daily-stats.ts';
import { signedInMember } from '../../support/dashboard.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';

const engines = await testEngines();

describe.each(engines)('the dashboard home on %s', (engine) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness.close());

  const today = () => new Date().toISOString().slice(0, 10);
  const finalPayment = async (merchantId: number, environment: 'sandbox' | 'production', to: 'approved' | 'declined', amountMinor: number) => {
    const id = await createPendingPayment(harness.database, {
      merchantId,
      environment,
      currency: 'EUR',
      amountMinor,
      createdAt: new Date().toISOString(),
      method: 'card',
    });
    await movePayment(harness.database, id, 'pending', to, to === 'declined' ? 'Insufficient funds' : undefined);
  };

  it('shows an empty state before any payment', async () => {
    const member = await signedInMember(harness);
    const page = await member.get('/dashboard');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('No final payments in this range.');
    expect(page.body).toContain('No money has moved yet.');
  });

  it('charts the environment of the switch only, with the numbers as a table', async () => {
    const member = await signedInMember(harness);
    await finalPayment(member.merchant.id, 'sandbox', 'approved', 1250);
    await finalPayment(member.merchant.id, 'sandbox', 'declined', 700);
    await finalPayment(member.merchant.id, 'production', 'approved', 99_900);
    while ((await foldDailyStatDeltas(harness.database.db, 1000)) > 0) {}
    const sandbox = await member.get('/dashboard?range=today');
    expect(sandbox.body).toContain('data-chart="volume"');
    expect(sandbox.body).toContain(`<th scope="row">${today()}</th><td class="num">12.50</td>`);
    expect(sandbox.body).toContain(`<th scope="row">${today()}</th><td class="num">2</td><td class="num">1</td>`); // payments, approved
    expect(sandbox.body).toContain(`<th scope="row">${today()}</th><td class="num">50.0</td>`); // approval rate
    expect(sandbox.body).toContain('aria-label="Decline reasons: bar chart');
    expect(sandbox.body).not.toContain('999.00');
    await member.setEnvironment('production');
    const live = await member.get('/dashboard?range=30d');
    expect(live.body).toContain('999.00');
    expect(live.body).not.toContain('12.50');
  });

  it('never shows another merchant’s figures', async () => {
    const first = await signedInMember(harness);
    const second = await signedInMember(harness);
    await finalPayment(second.merchant.id, 'sandbox', 'approved', 4321);
    while ((await foldDailyStatDeltas(harness.database.db, 1000)) > 0) {}
    expect((await first.get('/dashboard')).body).not.toContain('43.21');
    expect((await second.get('/dashboard')).body).toContain('43.21');
  });
});
