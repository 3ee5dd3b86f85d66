import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_COMMISSION, chargeOf, paymentCaptured, postLedger, refundReserved } from '../../../src/ledger/index.ts';
import { approveMerchant, createSignedUpMerchant } from '../../../src/payments/index.ts';
import type { MemberRole } from '../../../src/back-office/domain/roles.ts';
import { startWorkers, type RunningWorkers } from '../../../src/workers/runner.ts';
import { signedInMember, type DashboardClient } from '../../support/dashboard.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const ROLES: readonly MemberRole[] = ['owner', 'developer', 'support', 'viewer'];
const WORKER_POLL_MS = 60_000; // passes are driven with tick()

// The rows of a page's statement table, each as its cells' text.
function tableRows(page: string): string[][] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(page)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((cell) => cell[1]!.replace(/<[^>]+>/g, '').trim()),
  );
}
const availableAfter = (page: string) => tableRows(page).map((cells) => cells[5]);
const olderLink = (page: string) => /<a href="([^"]+)" rel="next">/.exec(page)?.[1]?.replaceAll('&amp;', '&');

describe.each(engines)('the Balance and Developers pages on %s', (engine) => {
  let harness: Harness;
  let receiver: Receiver;
  let workers: RunningWorkers;

  beforeAll(async () => {
    harness = await startHarness(engine);
    receiver = await startReceiver();
    workers = startWorkers({ context: harness.app.payrail, adapterClient: harness.app.payrail.adapterClient }, harness.app.log, WORKER_POLL_MS);
  });
  afterAll(async () => {
    await workers?.stop();
    await receiver?.close();
    await harness?.close();
  });

  // An approved payment and its capture posting, as the capture writes them (the inject harness reaches no adapter).
  const pay = async (merchant: TestMerchant, amount: number, environment: 'sandbox' | 'production' = 'sandbox') => {
    const [row] = await queryRows<{ id: number; token: string }>(
      harness.database,
      sql`insert into payments (token, merchant_id, environment, request_variant, status, product, amount_minor, currency,
            gateway_amount_minor, gateway_currency, locale, callback_url, captured_minor)
          values (md5(random()::text), ${merchant.id}, ${environment}, 'A', 'approved', 'Dashboard order', ${amount}, 'USD', ${amount}, 'USD', 'en',
            ${`${receiver.url}/hook`}, ${amount})
          returning id, token`,
    );
    const scope = { merchantId: merchant.id, environment };
    await harness.database.db.transaction((tx) => postLedger(tx, scope, paymentCaptured(chargeOf(amount, 'USD', NO_COMMISSION)), { paymentId: row!.id }));
    return { id: Number(row!.id), token: row!.token };
  };
  const balanceStatus = async (key: string) => (await harness.merchantRequest(key, { method: 'GET', url: '/api/v1/balance' })).statusCode;

  it('shows every page to every role, in both modes', async () => {
    const merchant = await harness.createMerchant();
    for (const role of ROLES) {
      const member = await signedInMember(harness, { role, merchant });
      for (const environment of ['sandbox', 'production'] as const) {
        await member.setEnvironment(environment);
        for (const path of [
          '/dashboard/balance',
          '/dashboard/developers',
          '/dashboard/developers/notifications',
          '/dashboard/developers/notifications?failed=1',
        ]) {
          const page = await member.get(path);
          expect(page.statusCode, `${role} ${environment} ${path}`).toBe(200);
          expect(page.body.match(/<h1>/g)).toHaveLength(1);
        }
      }
    }
  });

  it('computes the running balance right across two statement pages, even with a payment made in between', async () => {
    const merchant = await harness.createMerchant();
    for (const amount of [1000, 2000, 3000, 4000, 5000]) await pay(merchant, amount);
    const member = await signedInMember(harness, { role: 'viewer', merchant });
    const first = await member.get('/dashboard/balance?currency=USD&rows=3');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('150.00 USD');
    expect(availableAfter(first.body)).toEqual(['150.00 USD', '100.00 USD', '60.00 USD']);
    expect(tableRows(first.body)[0]).toEqual(expect.arrayContaining(['Payment captured', '50.00 USD']));
    expect(first.body).toMatch(/href="\/dashboard\/payments\/[0-9a-f]{32}"/);
    await pay(merchant, 7000); // newer than page one: page two must not move
    const second = await member.get(olderLink(first.body)!);
    expect(availableAfter(second.body)).toEqual(['30.00 USD', '10.00 USD']);
    expect(olderLink(second.body)).toBeUndefined();
    const newest = await member.get('/dashboard/balance?currency=USD&rows=3');
    expect(availableAfter(newest.body)).toEqual(['220.00 USD', '150.00 USD', '100.00 USD']);
  });

  it('keeps sandbox money out of live mode', async () => {
    const merchant = await harness.createMerchant();
    await pay(merchant, 1234);
    const member = await signedInMember(harness, { role: 'owner', merchant, environment: 'production' });
    const live = await member.get('/dashboard/balance');
    expect(live.body).not.toContain('12.34');
    expect(live.body).toContain('No money has moved in this mode yet');
    const liveStatement = await member.get('/dashboard/balance?currency=USD');
    expect(liveStatement.body).toContain('No entries in this currency yet.');
    const csv = await member.get('/dashboard/balance/statement.csv?currency=USD');
    expect(csv.body.trim().split('\r\n')).toHaveLength(1);
    await member.setEnvironment('sandbox');
    expect((await member.get('/dashboard/balance')).body).toContain('12.34 USD');
  });

  it('exports the statement as CSV, newest first, with the running balance', async () => {
    const merchant = await harness.createMerchant();
    for (const amount of [250, 1000]) await pay(merchant, amount);
    const scope = { merchantId: merchant.id, environment: 'sandbox' as const };
    await harness.database.db.transaction((tx) => postLedger(tx, scope, refundReserved(chargeOf(300, 'USD', NO_COMMISSION))));
    const member = await signedInMember(harness, { role: 'support', merchant });
    const csv = await member.get('/dashboard/balance/statement.csv?currency=USD');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="statement-sandbox-USD-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.body
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(lines[0]).toEqual([
      'date',
      'entry',
      'payment_token',
      'currency',
      'available_change',
      'hold_change',
      'available_after',
      'hold_after',
      'ledger_transaction',
    ]);
    expect(lines.slice(1).map((line) => line.slice(3, 8))).toEqual([
      ['USD', '-3.00', '3.00', '9.50', '3.00'],
      ['USD', '10.00', '0.00', '12.50', '0.00'],
      ['USD', '2.50', '0.00', '2.50', '0.00'],
    ]);
    expect(lines.map((line) => line[1])).toEqual(['entry', 'refund_reserved', 'payment_captured', 'payment_captured']);
    expect(lines[2]![2]).toMatch(/^[0-9a-f]{32}$/);
    const page = await member.get('/dashboard/balance');
    expect(tableRows(page.body)[0]).toEqual(expect.arrayContaining(['Refund reserved', '-3.00 USD', '3.00 USD', '9.50 USD']));
    expect((await member.get('/dashboard/balance/statement.csv?currency=usd')).statusCode).toBe(400);
    expect((await member.get('/dashboard/balance/statement.csv?currency=XXXX')).statusCode).toBe(422);
    expect((await member.get('/dashboard/balance?before=abc')).statusCode).toBe(400);
  });

  it('lets a developer rotate a key after a confirmation, shows it once, and ends the old one', async () => {
    const merchant = await harness.createMerchant();
    const member = await signedInMember(harness, { role: 'developer', merchant });
    const developers = await member.get('/dashboard/developers');
    expect(developers.body).toContain(merchant.sandboxKey.slice(0, 15));
    expect(developers.body).not.toContain(merchant.sandboxKey);
    expect(developers.body).not.toContain(merchant.productionKey);
    const confirm = await member.get('/dashboard/developers/keys/sandbox/rotate');
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Rotate the test key now');
    const rotated = await member.post('/dashboard/developers/keys/sandbox/rotate', {}, '/dashboard/developers/keys/sandbox/rotate');
    expect(rotated.statusCode).toBe(200);
    const newKey = /<code class="secret" id="new-key">(sk_sandbox_[A-Za-z0-9_-]+)<\/code>/.exec(rotated.body)?.[1];
    expect(newKey).toBeDefined();
    expect(await balanceStatus(merchant.sandboxKey)).toBe(401);
    expect(await balanceStatus(newKey!)).toBe(200);
    expect(await balanceStatus(merchant.productionKey)).toBe(200);
    const after = await member.get('/dashboard/developers');
    expect(after.body).not.toContain(newKey);
    expect(after.body).toContain(newKey!.slice(0, 15));
  });

  it('refuses rotation to a viewer and to a forged POST of support, and the key keeps working', async () => {
    const merchant = await harness.createMerchant();
    const viewer = await signedInMember(harness, { role: 'viewer', merchant });
    expect((await viewer.get('/dashboard/developers')).body).not.toContain('/dashboard/developers/keys/sandbox/rotate');
    expect((await viewer.get('/dashboard/developers/keys/sandbox/rotate')).statusCode).toBe(403);
    expect((await viewer.post('/dashboard/developers/keys/sandbox/rotate', {}, '/dashboard/developers')).statusCode).toBe(403);
    const support = await signedInMember(harness, { role: 'support', merchant });
    const forged = await support.post('/dashboard/developers/keys/production/rotate', {}, '/dashboard/developers');
    expect(forged.statusCode).toBe(403);
    expect(forged.body).not.toMatch(/sk_live_[A-Za-z0-9_-]{20,}/);
    expect((await support.post('/dashboard/developers/keys/production/issue', {}, '/dashboard/developers')).statusCode).toBe(403);
    expect(await balanceStatus(merchant.productionKey)).toBe(200);
    expect(await balanceStatus(merchant.sandboxKey)).toBe(200);
  });

  it('issues the live key of an approved merchant once, and says a pending one waits for an operator', async () => {
    const db = harness.database.db;
    const { merchant, sandboxKey } = await createSignedUpMerchant(db, harness.app.payrail.masterKey, 'Signed-up shop');
    const shop: TestMerchant = { id: merchant.id, sandboxKey, productionKey: '' };
    const owner = await signedInMember(harness, { role: 'owner', merchant: shop });
    const pending = await owner.get('/dashboard/developers');
    expect(pending.body).toContain('waits for an operator’s review');
    expect(pending.body).not.toContain('Issue the live key');
    expect((await owner.post('/dashboard/developers/keys/production/issue', {}, '/dashboard/developers')).statusCode).toBe(409);
    await approveMerchant(db, merchant.id);
    expect((await owner.get('/dashboard/developers')).body).toContain('Issue the live key');
    const issued = await owner.post('/dashboard/developers/keys/production/issue', {}, '/dashboard/developers');
    expect(issued.statusCode).toBe(200);
    const liveKey = /<code class="secret" id="new-key">(sk_live_[A-Za-z0-9_-]+)<\/code>/.exec(issued.body)?.[1];
    expect(await balanceStatus(liveKey!)).toBe(200);
    const again = await owner.post('/dashboard/developers/keys/production/issue', {}, '/dashboard/developers');
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('issued already');
  });

  it('lists failed deliveries with their attempts, and resends for support but not for a viewer', async () => {
    const merchant = await harness.createMerchant();
    receiver.failNext([500]);
    const paid = await pay(merchant, 900);
    await harness.database.db.execute(
      sql`insert into outbox (topic, payment_id, due_at, event_id) values ('notification', ${paid.id}, now(), 'evt-dashboard-1')`,
    );
    await workers.tick();
    const support = await signedInMember(harness, { role: 'support', merchant });
    const failed = await support.get('/dashboard/developers/notifications?failed=1');
    expect(failed.body).toContain(`/dashboard/payments/${paid.token}`);
    expect(tableRows(failed.body)[0]).toEqual(expect.arrayContaining(['Failed, retrying', '500']));
    expect((await support.get('/dashboard/developers/notifications')).body).toContain(`/dashboard/payments/${paid.token}`);
    const viewer = await signedInMember(harness, { role: 'viewer', merchant });
    expect((await viewer.get('/dashboard/developers/notifications')).body).not.toContain('>Resend<');
    const outboxCount = async () =>
      (
        await queryRows<{ count: number }>(
          harness.database,
          sql`select count(*)::int as count from outbox o join payments p on p.id = o.payment_id where p.token = ${paid.token} and o.topic = 'notification'`,
        )
      )[0]!.count;
    const before = await outboxCount();
    const path = `/dashboard/developers/notifications/${paid.token}/resend`;
    expect((await viewer.post(path, {}, '/dashboard/developers/notifications')).statusCode).toBe(403);
    expect(await outboxCount()).toBe(before);
    const resent = await support.post(path, {}, '/dashboard/developers/notifications');
    expect(resent.statusCode).toBe(303);
    expect(await outboxCount()).toBe(before + 1);
    const other = await signedInMember(harness, { role: 'owner' });
    expect((await other.post(path, {}, '/dashboard/developers/notifications')).statusCode).toBe(404);
    expect((await other.get('/dashboard/developers/notifications')).body).not.toContain(paid.token);
    const live = await signedInMember(harness, { role: 'owner', merchant, environment: 'production' });
    expect((await live.get('/dashboard/developers/notifications')).body).not.toContain(paid.token);
    expect((await live.post(path, {}, '/dashboard/developers/notifications')).statusCode).toBe(404);
  });

  it('creates a sandbox payment from the console, Host-to-Host or for the checkout, and refuses in live mode', async () => {
    const merchant = await harness.createMerchant();
    const developer: DashboardClient = await signedInMember(harness, { role: 'developer', merchant });
    const h2h = await developer.post(
      '/dashboard/developers/console',
      { scenario: 'approved', amount: '12.34', currency: 'USD', flow: 'h2h' },
      '/dashboard/developers/console',
    );
    expect(h2h.statusCode, h2h.body).toBe(200);
    expect(h2h.body).toContain('Test payment created: 12.34 USD');
    const token = /href="\/dashboard\/payments\/([0-9a-f]{32})"/.exec(h2h.body)?.[1];
    const [row] = await queryRows<{ environment: string; amount_minor: string; merchant_id: string }>(
      harness.database,
      sql`select environment, amount_minor::text, merchant_id::text from payments where token = ${token!}`,
    );
    expect(row).toEqual({ environment: 'sandbox', amount_minor: '1234', merchant_id: String(merchant.id) });
    const hosted = await developer.post(
      '/dashboard/developers/console',
      { scenario: 'declined', amount: '5', currency: 'EUR', flow: 'checkout' },
      '/dashboard/developers/console',
    );
    expect(hosted.body).toMatch(/href="https:\/\/pay\.test\/checkout\/[0-9a-f]{32}\?locale=en"/);
    const bad = await developer.post(
      '/dashboard/developers/console',
      { scenario: 'approved', amount: '1.234', currency: 'USD', flow: 'h2h' },
      '/dashboard/developers/console',
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('USD has at most 2 decimals');
    const count = async () =>
      (await queryRows<{ count: number }>(harness.database, sql`select count(*)::int as count from payments where merchant_id = ${merchant.id}`))[0]!.count;
    const made = await count();
    const support = await signedInMember(harness, { role: 'support', merchant });
    expect((await support.get('/dashboard/developers/console')).statusCode).toBe(403);
    expect(
      (await support.post('/dashboard/developers/console', { scenario: 'approved', amount: '1', currency: 'USD', flow: 'h2h' }, '/dashboard/developers'))
        .statusCode,
    ).toBe(403);
    await developer.setEnvironment('production');
    expect((await developer.get('/dashboard/developers/console')).statusCode).toBe(409);
    const live = await developer.post(
      '/dashboard/developers/console',
      { scenario: 'approved', amount: '1', currency: 'USD', flow: 'h2h' },
      '/dashboard/developers',
    );
    expect(live.statusCode).toBe(409);
    expect(await count()).toBe(made);
  });
});
