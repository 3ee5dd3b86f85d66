import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptWithMasterKey } from '../../../src/platform/lib/crypto.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

describe.each(engines)('admin API on %s', (engine) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness?.close());

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    harness.app.inject({ method, url: `/api/admin/v1${url}`, headers: { authorization: `Bearer ${harness.adminKey}` }, ...(payload ? { payload } : {}) });

  it('creates a merchant and shows its two keys once', async () => {
    const response = await admin('POST', '/merchants', { name: 'Acme' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      merchant: {
        id: expect.any(Number),
        name: 'Acme',
        display_name: null,
        sandbox_key: expect.stringMatching(/^sk_sandbox_/),
        production_key: expect.stringMatching(/^sk_live_/),
      },
    });
    const { id, sandbox_key: sandboxKey } = response.json().merchant;
    const fetched = await admin('GET', `/merchants/${id}`);
    expect(fetched.json().merchant).toMatchObject({ id, name: 'Acme', status: 'active' });
    expect(fetched.body).not.toContain(sandboxKey);
    expect(fetched.json().merchant.keys.map((key: { prefix: string }) => key.prefix)).toEqual(expect.arrayContaining([`${sandboxKey.slice(0, 15)}…`]));
  });

  it('stores keys encrypted under the master key with a SHA-256 digest, never in clear', async () => {
    const created = (await admin('POST', '/merchants', { name: 'Sealed' })).json().merchant;
    const [row] = await queryRows<{ key_sealed: string; key_digest: string; row: string }>(
      harness.database,
      sql`select key_sealed, key_digest, row_to_json(k)::text as row from merchant_keys k where merchant_id = ${created.id} and environment = 'sandbox'`,
    );
    if (!row) throw new Error('no key row');
    expect(row.row).not.toContain(created.sandbox_key);
    expect(decryptWithMasterKey(Buffer.alloc(32, 7), row.key_sealed)).toBe(created.sandbox_key);
    expect(row.key_digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lists merchants newest first with paging', async () => {
    await admin('POST', '/merchants', { name: 'Listed' });
    const body = (await admin('GET', '/merchants?perPage=2')).json();
    expect(body).toMatchObject({ success: true, page: 1, perPage: 2 });
    expect(body.totalCount).toBeGreaterThanOrEqual(3);
    expect(body.merchants[0].name).toBe('Listed');
    expect(body.merchants).toHaveLength(2);
  });

  it.each([
    ['an empty name', { name: '' }],
    ['a missing name', {}],
    ['a name over 255 characters', { name: 'x'.repeat(256) }],
    ['an unknown field', { name: 'Ok', plan: 'gold' }],
  ])('refuses %s with 422', async (_label, payload) => {
    const response = await admin('POST', '/merchants', payload);
    expect(response.statusCode).toBe(422);
    expect(response.json().success).toBe(false);
  });

  it('answers 404 for an unknown merchant and 422 for a bad environment', async () => {
    expect((await admin('GET', '/merchants/999999')).statusCode).toBe(404);
    expect((await admin('POST', '/merchants/999999/keys/sandbox/rotate')).statusCode).toBe(404);
    expect((await admin('POST', '/merchants/999999/disable')).statusCode).toBe(404);
    expect((await admin('POST', '/merchants/1/keys/staging/rotate')).statusCode).toBe(422);
    expect((await admin('GET', '/merchants/abc')).statusCode).toBe(422);
  });

  it('refuses requests without the admin key, or with a merchant key', async () => {
    const merchant = await harness.createMerchant();
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${merchant.sandboxKey}`]) {
      const response = await harness.app.inject({
        method: 'GET',
        url: '/api/admin/v1/merchants',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().errors[0].code).toBe('unauthorized');
    }
  });
});
