import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedUpMerchant } from '../../../src/payments/index.ts';
import { auditRowsOf } from '../../support/audit.ts';
import { signedInMember } from '../../support/dashboard.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { signedInOperators, type OpsClient } from '../../support/ops.ts';

const engines = await testEngines();

// The console's merchants pages: who may open and do what, each action through the admin API's flows, each change
// once in the audit log under the operator.
describe.each(engines)('operator console merchants on %s', (engine) => {
  let harness: Harness;
  let admin: OpsClient;
  let support: OpsClient;
  let finance: OpsClient;
  let merchant: TestMerchant;
  beforeAll(async () => {
    harness = await startHarness(engine);
    ({ admin, support, finance } = await signedInOperators(harness));
    merchant = await harness.createMerchant(`Role table ${engine}`);
  });
  afterAll(async () => harness.close());

  const auditOf = (action: string, subjectType: string, subjectId: string | number) => auditRowsOf(harness.database, { subjectType, subjectId, action });
  const merchantRow = async (id: number) => {
    const result = await harness.database.db.execute<{ status: string; review_status: string; review_note: string | null; display_name: string | null }>(
      sql`select status, review_status, review_note, display_name from merchants where id = ${id}`,
    );
    return result.rows[0];
  };
  const signUp = async (name: string) => {
    const { merchant: row, sandboxKey } = await createSignedUpMerchant(harness.database.db, harness.app.payrail.masterKey, name);
    return { id: row.id, sandboxKey, productionKey: '' };
  };

  it.each([
    ['/ops/merchants', 200, 200, 200],
    ['/ops/merchants?review=pending_review', 200, 200, 200],
    ['/ops/merchants/{id}', 200, 200, 200],
    ['/ops/merchants/{id}/reject', 200, 403, 403],
    ['/ops/merchants/{id}/disable', 200, 403, 403],
    ['/ops/merchants/{id}/keys/sandbox/rotate', 200, 403, 403],
    ['/ops/merchants/{id}/commissions', 200, 403, 403],
  ])('answers %s with %i to admin, %i to support, %i to finance', async (path, adminStatus, supportStatus, financeStatus) => {
    const url = path.replace('{id}', String(merchant.id));
    expect((await admin.get(url)).statusCode).toBe(adminStatus);
    expect((await support.get(url)).statusCode).toBe(supportStatus);
    expect((await finance.get(url)).statusCode).toBe(financeStatus);
  });

  it('shows each role only what it may do on the merchant page, and key prefixes, never a key', async () => {
    const page = (await admin.get(`/ops/merchants/${merchant.id}`)).body;
    expect(page).toContain('Commissions');
    expect(page).toContain('Edit the commissions');
    expect(page).toContain('Disable…');
    expect(page).toContain('Add a gateway');
    expect(page).toMatch(/sk_sandbox_[A-Za-z0-9]{1,8}…|sk_sandbox_/);
    expect(page).not.toContain(merchant.sandboxKey);
    expect(page).not.toContain(merchant.productionKey);
    const supportPage = (await support.get(`/ops/merchants/${merchant.id}`)).body;
    expect(supportPage).not.toContain('Commissions');
    expect(supportPage).not.toContain('Disable…');
    expect(supportPage).not.toContain('Add a gateway');
    const financePage = (await finance.get(`/ops/merchants/${merchant.id}`)).body;
    expect(financePage).toContain('Commissions');
    expect(financePage).not.toContain('Edit the commissions');
    expect(financePage).not.toContain('Rotate…');
  });

  it('finds merchants by a part of the name or by id, filters the review queue, and pages by keyset', async () => {
    const prefix = `Keyset ${engine}`;
    const pending = await signUp(`${prefix} waiting`);
    for (let index = 0; index < 50; index += 1) await signUp(`${prefix} ${index}`);
    await harness.database.db.execute(sql`update merchants set review_status = 'approved' where name like ${`${prefix} %`} and id <> ${pending.id}`);
    const first = await admin.get(`/ops/merchants?q=${encodeURIComponent(prefix.toLowerCase())}`);
    expect(first.statusCode).toBe(200);
    expect(first.body.match(/<tr>\s*<td>#/g)).toHaveLength(50);
    const next = /href="([^"]+)" rel="next"/.exec(first.body)?.[1]?.replaceAll('&amp;', '&') ?? '';
    expect(next).toContain('cursor=');
    const second = await admin.get(next);
    expect(second.body.match(/<tr>\s*<td>#/g)).toHaveLength(1);
    expect(second.body).not.toContain('rel="next"');
    const byId = await support.get(`/ops/merchants?q=${pending.id}`);
    expect(byId.body).toContain(`href="/ops/merchants/${pending.id}"`);
    const queue = await finance.get(`/ops/merchants?review=pending_review&q=${encodeURIComponent(prefix)}`);
    expect(queue.body.match(/<tr>\s*<td>#/g)).toHaveLength(1);
    expect(queue.body).toContain(`${prefix} waiting`);
    const refused = await admin.get('/ops/merchants?review=sometimes');
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('role="alert"');
  });

  it('rejects a sign-up with a reason its members then see, and gives it no production key', async () => {
    const shop = await signUp(`Rejected shop ${engine}`);
    const owner = await signedInMember(harness, { merchant: shop, role: 'owner' });
    expect((await owner.get('/dashboard')).body).toContain('waiting for an operator’s review');
    const empty = await admin.post(`/ops/merchants/${shop.id}/reject`, { reason: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('reason');
    expect((await merchantRow(shop.id))?.review_status).toBe('pending_review');
    const reason = 'We could not verify the business address <b>';
    const rejected = await admin.post(`/ops/merchants/${shop.id}/reject`, { reason }, `/ops/merchants/${shop.id}/reject`);
    expect(rejected.statusCode).toBe(303);
    expect(rejected.headers.location).toBe(`/ops/merchants/${shop.id}?done=rejected`);
    expect((await admin.get(`/ops/merchants/${shop.id}?done=rejected`)).body).toContain('Reason: We could not verify the business address &lt;b&gt;');
    const banner = (await owner.get('/dashboard')).body;
    expect(banner).toContain('An operator has rejected your account');
    expect(banner).toContain('We could not verify the business address &lt;b&gt;');
    expect((await owner.post('/dashboard/developers/keys/production/issue', {}, '/dashboard/developers')).statusCode).toBe(409);
    expect((await admin.post(`/ops/merchants/${shop.id}/reject`, { reason: 'again' })).statusCode).toBe(409);
    const events = await auditOf('merchant.reject', 'merchant', shop.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: `operator:${admin.operatorId}`,
      subject_type: 'merchant',
      before: { review_status: 'pending_review', review_note: null },
      after: { review_status: 'rejected', review_note: reason },
    });
  });

  it('approves a sign-up from the review queue: the banner goes and the production key can be issued', async () => {
    const shop = await signUp(`Approved shop ${engine}`);
    const owner = await signedInMember(harness, { merchant: shop, role: 'owner' });
    const queue = await admin.get('/ops/merchants?review=pending_review');
    expect(queue.body).toContain(`href="/ops/merchants/${shop.id}"`);
    const approved = await admin.post(`/ops/merchants/${shop.id}/approve`, {});
    expect(approved.statusCode).toBe(303);
    expect((await admin.get(approved.headers.location as string)).body).toContain('Approved: the merchant may issue its production key');
    expect((await owner.get('/dashboard')).body).not.toContain('waiting for an operator’s review');
    expect((await owner.post('/dashboard/developers/keys/production/issue', {}, '/dashboard/developers')).statusCode).toBe(200);
    const events = await auditOf('merchant.approve', 'merchant', shop.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: `operator:${admin.operatorId}`,
      before: { review_status: 'pending_review' },
      after: { review_status: 'approved' },
    });
  });

  it('disables and enables a merchant (its key refused, then accepted) and edits its display name, each audited once', async () => {
    const shop = await harness.createMerchant(`Status shop ${engine}`);
    const balance = async () => (await harness.merchantRequest(shop.sandboxKey, { method: 'GET', url: '/api/v1/balance' })).statusCode;
    expect((await admin.post(`/ops/merchants/${shop.id}/disable`, {}, `/ops/merchants/${shop.id}/disable`)).statusCode).toBe(303);
    expect(await balance()).toBe(403);
    expect((await admin.post(`/ops/merchants/${shop.id}/enable`, {})).statusCode).toBe(303);
    expect(await balance()).toBe(200);
    const tooLong = await admin.post(`/ops/merchants/${shop.id}/display-name`, { displayName: 'x'.repeat(101) });
    expect(tooLong.statusCode).toBe(400);
    expect((await admin.post(`/ops/merchants/${shop.id}/display-name`, { displayName: ' Status & Co ' })).statusCode).toBe(303);
    expect((await merchantRow(shop.id))?.display_name).toBe('Status & Co');
    const actor = `operator:${admin.operatorId}`;
    expect(await auditOf('merchant.disable', 'merchant', shop.id)).toMatchObject([{ actor, before: { status: 'active' }, after: { status: 'disabled' } }]);
    expect(await auditOf('merchant.enable', 'merchant', shop.id)).toMatchObject([{ actor, before: { status: 'disabled' }, after: { status: 'active' } }]);
    expect(await auditOf('merchant.rename', 'merchant', shop.id)).toMatchObject([
      { actor, before: { display_name: null }, after: { display_name: 'Status & Co' } },
    ]);
  });

  it('rotates a key once: the new key shown on that page only, the old one refused, the audit row redacted', async () => {
    const shop = await harness.createMerchant(`Rotation shop ${engine}`);
    const confirm = await admin.get(`/ops/merchants/${shop.id}/keys/production/rotate`);
    expect(confirm.body).toContain('Rotate the production key');
    const rotated = await admin.post(`/ops/merchants/${shop.id}/keys/production/rotate`, {}, `/ops/merchants/${shop.id}/keys/production/rotate`);
    expect(rotated.statusCode).toBe(200);
    const newKey = /id="new-key">([^<]+)</.exec(rotated.body)?.[1] ?? '';
    expect(newKey).toMatch(/^sk_live_/);
    expect((await harness.merchantRequest(shop.productionKey, { method: 'GET', url: '/api/v1/balance' })).statusCode).toBe(401);
    expect((await harness.merchantRequest(newKey, { method: 'GET', url: '/api/v1/balance' })).statusCode).toBe(200);
    expect((await admin.get(`/ops/merchants/${shop.id}`)).body).not.toContain(newKey);
    const events = await auditOf('merchant_key.rotate', 'merchant_key', `${shop.id}:production`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: `operator:${admin.operatorId}`,
      subject_type: 'merchant_key',
      after: { key_digest: '[redacted]', key_sealed: '[redacted]' },
    });
    const leaks = await harness.database.db.execute(
      sql`select id from audit_events where before::text like ${`%${newKey}%`} or after::text like ${`%${newKey}%`}`,
    );
    expect(leaks.rows).toEqual([]);
  });

  it('edits commissions as admin; refuses support’s and finance’s forged POSTs and changes nothing', async () => {
    const shop = await harness.createMerchant(`Commission shop ${engine}`);
    const form = { pay_percent: '2.5', pay_fixed: '30', payout_percent: '', payout_fixed: '', refund_percent: '', refund_fixed: '' };
    const bad = await admin.post(`/ops/merchants/${shop.id}/commissions`, { ...form, pay_percent: '2.555' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('pay.percent');
    for (const forger of [support, finance]) {
      const forged = await forger.post(`/ops/merchants/${shop.id}/commissions`, { ...form, pay_percent: '99' });
      expect(forged.statusCode).toBe(403);
    }
    const terms = async () =>
      (await harness.database.db.execute(sql`select operation, percent_bp, fixed_minor from commissions where merchant_id = ${shop.id}`)).rows;
    expect(await terms()).toEqual([]);
    expect(await auditOf('commission.update', 'commission', `${shop.id}:pay`)).toEqual([]);
    expect((await admin.post(`/ops/merchants/${shop.id}/commissions`, form, `/ops/merchants/${shop.id}/commissions`)).statusCode).toBe(303);
    expect(await terms()).toEqual([{ operation: 'pay', percent_bp: 250, fixed_minor: expect.anything() }]);
    expect((await finance.get(`/ops/merchants/${shop.id}`)).body).toContain('2.5 %');
    const events = await auditOf('commission.update', 'commission', `${shop.id}:pay`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: `operator:${admin.operatorId}`, subject_type: 'commission', after: { percent_bp: 250 } });
  });

  it('refuses every merchant action to support as a forged POST, changing nothing', async () => {
    const shop = await signUp(`Forged shop ${engine}`);
    const before = await merchantRow(shop.id);
    for (const [path, form] of [
      [`/ops/merchants/${shop.id}/approve`, {}],
      [`/ops/merchants/${shop.id}/reject`, { reason: 'forged' }],
      [`/ops/merchants/${shop.id}/disable`, {}],
      [`/ops/merchants/${shop.id}/enable`, {}],
      [`/ops/merchants/${shop.id}/display-name`, { displayName: 'Forged' }],
      [`/ops/merchants/${shop.id}/keys/sandbox/rotate`, {}],
    ] as const) {
      const forged = await support.post(path, form);
      expect(forged.statusCode, path).toBe(403);
      expect(forged.body).not.toMatch(/sk_sandbox_[A-Za-z0-9_-]{20,}/);
    }
    expect(await merchantRow(shop.id)).toEqual(before);
    expect((await harness.merchantRequest(shop.sandboxKey, { method: 'GET', url: '/api/v1/balance' })).statusCode).toBe(200);
    const events = await harness.database.db.execute(
      sql`select id from audit_events where actor = ${`operator:${support.operatorId}`} and action <> 'operator.sign_in'`,
    );
    expect(events.rows).toEqual([]);
  });
});
