import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { merchantAccounts } from '../../support/ledger-accounts.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();

// GET /api/v1/balance over real sandbox payments: the whole service on HTTPS, the in-process sandbox adapter and
// the workers, on either engine.
describe.each(engines)('balance after sandbox Host-to-Host payments on %s', (engine) => {
  let server: ServerHarness;
  let merchant: { id: number; sandboxKey: string; productionKey: string };

  beforeAll(async () => {
    server = await startServerHarness(engine);
    merchant = await server.createMerchant();
  });
  afterAll(async () => server?.close());

  const balance = (query = '', key = merchant.sandboxKey) => server.call('GET', `/api/v1/balance${query}`, { key });
  const pay = (pan: string, amount: number, currency: string) =>
    server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: {
        product: 'Balance test order',
        amount,
        currency,
        callbackUrl: 'https://merchant.example/callback',
        card: { pan, expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
  const accountsOf = async (currency: string) => {
    const accounts = await merchantAccounts(server.running.app.payrail.database.db, merchant.id, 'sandbox', currency);
    return Object.fromEntries(Object.entries(accounts).filter(([, balance]) => balance !== 0));
  };
  const statusOf = async (token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.sandboxKey })).body.payment.status;

  it('shows no wallets before money moved, and zeros for a currency that never moved', async () => {
    const all = await balance();
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ success: true, result: 0, status: 200, wallets: [] });
    const usd = await balance('?currency=USD');
    expect(usd.body).toEqual({ success: true, result: 0, status: 200, wallet: { available: 0, hold: 0, currency: 'USD' } });
  });

  it('moves available by amount − commission and fees by the commission when 4242 4242 4242 4242 is approved', async () => {
    const terms = await server.call('PUT', `/api/admin/v1/merchants/${merchant.id}/commissions`, {
      key: server.adminKey,
      body: { pay: { percent: 2.5, fixed: 30 } },
    });
    expect(terms.status).toBe(200);
    const created = await pay('4242 4242 4242 4242', 1999, 'EUR');
    expect(created.body.payment.status).toBe('approved');
    // 2.5 % of 19.99 EUR = 0.49975 → 0.50, plus 0.30
    const eur = await balance('?currency=EUR');
    expect(eur.body).toEqual({ success: true, result: 0, status: 200, wallet: { available: 1919, hold: 0, currency: 'EUR' } });
    expect(await accountsOf('EUR')).toEqual({ available: 1919, customers: -1999, fees: 80 });
    const detail = await server.call('GET', `/api/v1/payments/${created.body.token}`, { key: merchant.sandboxKey });
    expect(detail.body.payment).toMatchObject({ captured_amount: 1999, commission_data: { commission_value: 2.5, commission_fee: 30, commission_amount: 80 } });
  });

  it('leaves the balance alone when a payment is declined', async () => {
    const declined = await pay('4000 0000 0000 0002', 5000, 'EUR');
    expect(declined.body.payment.status).toBe('declined');
    expect((await balance('?currency=EUR')).body.wallet).toEqual({ available: 1919, hold: 0, currency: 'EUR' });
  });

  it('credits a payment the status checker approves later, and lists every currency by code', async () => {
    const pending = await pay('4000 0000 0000 1026', 10_000, 'USD');
    expect(pending.body.payment.status).toBe('pending');
    await expect.poll(() => statusOf(pending.body.token), { timeout: 15_000, interval: 100 }).toBe('approved');
    const all = await balance();
    // 2.5 % of 100.00 USD + 0.30
    expect(all.body.wallets).toEqual([
      { currency: 'EUR', available: 1919, hold: 0 },
      { currency: 'USD', available: 9720, hold: 0 },
    ]);
  });

  it("shows a key only its own environment's and its own merchant's wallets", async () => {
    expect((await balance('', merchant.productionKey)).body.wallets).toEqual([]);
    expect((await balance('?currency=EUR', merchant.productionKey)).body.wallet).toEqual({ available: 0, hold: 0, currency: 'EUR' });
    const other = await server.createMerchant('Other merchant');
    expect((await balance('', other.sandboxKey)).body.wallets).toEqual([]);
  });

  it('finds the ledger clean after the mix of approved, declined and late-approved payments', async () => {
    const check = await server.call('GET', '/api/admin/v1/ledger/check', { key: server.adminKey });
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ success: true, violations: [], overdrawn: [] });
  });

  it.each([
    ['lower case', '?currency=eur', 'currency'],
    ['too long', '?currency=EUROS', 'currency'],
    ['an unknown code', '?currency=XYZ', 'currency'],
    ['an unknown parameter', '?wallet=EUR', 'wallet'],
  ])('answers 422 for %s', async (_label, query, field) => {
    const response = await balance(query);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ success: false, result: 1, status: 422 });
    expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
  });

  it('accepts a configured four-letter currency', async () => {
    expect((await balance('?currency=USDT')).body.wallet).toEqual({ available: 0, hold: 0, currency: 'USDT' });
  });

  it('requires a merchant key', async () => {
    expect((await server.call('GET', '/api/v1/balance')).status).toBe(401);
    expect((await balance('', server.adminKey)).status).toBe(401);
  });
});
