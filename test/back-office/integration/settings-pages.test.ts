import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInMember } from '../../support/dashboard.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';

const engines = await testEngines();

describe.each(engines)('dashboard settings on %s', (engine) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness.close());

  it('lets an owner set the display name the checkout shows, and refuses a developer', async () => {
    const owner = await signedInMember(harness);
    const saved = await owner.post('/dashboard/settings/business', { displayName: 'Corner Books' });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain('Display name saved');
    const merchant = await harness.app.inject({
      method: 'GET',
      url: `/api/admin/v1/merchants/${owner.merchant.id}`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
    });
    expect(merchant.json().merchant.display_name).toBe('Corner Books');
    const developer = await signedInMember(harness, { role: 'developer', merchant: owner.merchant });
    expect((await developer.post('/dashboard/settings/business', { displayName: 'Hijacked' })).statusCode).toBe(403);
  });

  // callbackUrl stays required in the API's camelCase body (spec 2.1): there the default redirect URLs apply.
  it('gives a payment created without its own redirect URLs the merchant’s defaults; its own URLs win', async () => {
    const developer = await signedInMember(harness, { role: 'developer' });
    const saved = await developer.post('/dashboard/settings/defaults', {
      defaultCallbackUrl: 'https://merchant.example/default-callback',
      defaultSuccessUrl: 'https://merchant.example/thanks',
      defaultFailUrl: '',
    });
    expect(saved.statusCode).toBe(200);
    const create = (body: Record<string, unknown>) =>
      harness.merchantRequest(developer.merchant.sandboxKey, {
        method: 'POST',
        url: '/api/v1/payments',
        payload: { product: 'Paper book', amount: 1000, currency: 'USD', callbackUrl: 'https://merchant.example/own', ...body },
      });
    const plain = await create({});
    const own = await create({ redirectSuccessUrl: 'https://merchant.example/own-thanks' });
    expect(plain.statusCode).toBe(200);
    const urlsOf = async (token: string) => {
      const result = await harness.database.db.execute(sql`select callback_url, redirect_success_url, redirect_fail_url from payments where token = ${token}`);
      return result.rows[0];
    };
    expect(await urlsOf(plain.json().token)).toEqual({
      callback_url: 'https://merchant.example/own',
      redirect_success_url: 'https://merchant.example/thanks',
      redirect_fail_url: null,
    });
    expect((await urlsOf(own.json().token))?.['redirect_success_url']).toBe('https://merchant.example/own-thanks');
  });

  it('refuses a default URL that is not http(s), and a support member may not change defaults', async () => {
    const owner = await signedInMember(harness);
    const bad = await owner.post('/dashboard/settings/defaults', { defaultCallbackUrl: 'javascript:alert(1)' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('must be an http(s) URL');
    const support = await signedInMember(harness, { role: 'support', merchant: owner.merchant });
    expect((await support.post('/dashboard/settings/defaults', { defaultCallbackUrl: 'https://x.example/' })).statusCode).toBe(403);
  });

  it('shows each member only their own merchant’s team', async () => {
    const first = await signedInMember(harness);
    const second = await signedInMember(harness);
    const page = await first.get('/dashboard/settings');
    expect(page.body).toContain(first.email);
    expect(page.body).not.toContain(second.email);
    const removeOther = await first.post(`/dashboard/settings/team/${second.memberId}/remove`, {});
    expect(removeOther.statusCode).toBe(404);
    expect((await second.get('/dashboard/settings')).statusCode).toBe(200);
  });
});
