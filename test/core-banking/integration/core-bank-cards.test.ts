import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appTokens, bankCards } from '../../../src/core-banking/store/schema.ts';
import { createTestAppToken, openTestSession } from '../../support/core-banking.ts';
import { testEngines } from '../../support/databases.ts';
import type { Harness, TestMerchant } from '../../support/harness.ts';
import { startCardFixture, type CardFixture } from './core-bank-cards-fixtures.ts';

const engines = await testEngines();

// spec 4: POST /api/internal/v1/bank_cards on a real database with the built-in sandbox card issuer, and the
// app-token authentication of the three card endpoints.
describe.each(engines)('core banking bank cards on %s', (engine) => {
  let fixture: CardFixture;
  let harness: Harness;
  let merchant: TestMerchant;
  let profileId: number;
  let bankAccountId: number;
  let bankAccount: CardFixture['bankAccount'];
  let cardBody: CardFixture['cardBody'];
  let issue: CardFixture['issue'];
  let link: CardFixture['link'];
  let cardRow: CardFixture['cardRow'];

  beforeAll(async () => {
    fixture = await startCardFixture(engine);
    ({ harness, merchant, profileId, bankAccountId, bankAccount, cardBody, issue, link, cardRow } = fixture);
  });
  afterAll(async () => fixture?.harness.close());

  it('issues a virtual card through the sandbox issuer: mask, expiry three years ahead, outer id; no full number anywhere', async () => {
    const response = await issue(cardBody({ phone: '+44 20 7946 0958', holder_phone: '(020) 7946-0958', country_code: 'GB' }));
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    const now = new Date();
    expect(body).toMatchObject({
      success: true,
      errors: null,
      result: {
        card_type: 'virtual',
        status: 'active',
        exp_month: now.getUTCMonth() + 1,
        exp_year: now.getUTCFullYear() + 3,
        bank_account_id: bankAccountId,
        holder_first_name: 'Ada',
        holder_last_name: 'Lovelace',
      },
    });
    expect(body.result.card_mask).toMatch(/^400000\*{6}[0-9]{4}$/);
    expect(body.result.outer_id).toMatch(/^sbx_[0-9a-f]{24}$/);
    const row = await cardRow(body.result.id);
    expect(row).toMatchObject({
      status: 'active',
      issuer: 'sandbox',
      environment: 'sandbox',
      merchantId: merchant.id,
      profileId,
      phone: '+442079460958',
      holderPhone: '02079460958',
      delivery: null,
    });
  });

  it('refuses a physical card without a delivery address (422, before the issuer) and issues one with it', async () => {
    const refused = await issue(cardBody({ card_type: 'physical', bank_card_delivery_attributes: { address_line: '12 Baker Street' } }));
    expect(refused.statusCode).toBe(422);
    const errors = refused.json().errors as { code: string; field: string }[];
    expect(errors.map((error) => error.field).sort()).toEqual(
      ['bank_card_delivery_attributes.city', 'bank_card_delivery_attributes.country_code', 'bank_card_delivery_attributes.zipcode'].sort(),
    );
    expect(errors.every((error) => error.code === 'delivery_address_required')).toBe(true);
    expect((await issue(cardBody({ card_type: 'physical' }))).statusCode).toBe(422);
    const delivery = { address_line: '12 Baker Street', city: 'London', zipcode: 'NW1 6XE', country_code: 'GB', state: '' };
    const issued = await issue(cardBody({ card_type: 'physical', bank_card_delivery_attributes: delivery }));
    expect(issued.statusCode, issued.body).toBe(200);
    expect((await cardRow(issued.json().result.id)).delivery).toEqual({
      address_line: '12 Baker Street',
      city: 'London',
      zipcode: 'NW1 6XE',
      country_code: 'GB',
    });
  });

  it.each(['Decline', 'DECLINE', ' decline '])('records the sandbox rule holder_last_name %j as a rejection: HTTP 200, success false', async (lastName) => {
    const response = await issue(cardBody({ holder_last_name: lastName }));
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      success: false,
      result: { id: expect.any(Number), status: 'rejected', reason: 'issuer declined the application' },
      errors: { issuer: 'issuer declined the application' },
    });
    expect(await cardRow(body.result.id)).toMatchObject({
      status: 'rejected',
      outerId: null,
      panMask: null,
      rejectionReason: 'issuer declined the application',
    });
  });

  it('issues on approved bank accounts only (422 for a pending or unknown one)', async () => {
    const pending = await issue(cardBody({ bank_account_id: await bankAccount('pending') }));
    expect(pending.statusCode).toBe(422);
    expect(pending.json().errors[0]).toMatchObject({ code: 'bank_account_not_approved', field: 'bank_account_id' });
    const unknown = await issue(cardBody({ bank_account_id: 987_654_321 }));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors[0]).toMatchObject({ code: 'bank_account_not_found' });
  });

  it.each([
    ['a malformed key', 'not-a-key', 401, 'merchant_key_invalid'],
    ['an unknown key', `sk_sandbox_${'A'.repeat(43)}`, 401, 'merchant_key_invalid'],
  ])('refuses %s in merchant_private_key', async (_name, key, status, code) => {
    const response = await issue(cardBody({ merchant_private_key: key }));
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ success: false, status, errors: [{ code, kind: 'merchant_key', field: 'merchant_private_key' }] });
  });

  it("refuses a disabled merchant's key with 403", async () => {
    const other = await harness.createMerchant('Soon disabled programme');
    const disabled = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${other.id}/disable`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
    });
    expect(disabled.statusCode).toBe(200);
    const response = await issue(cardBody({ merchant_private_key: other.sandboxKey }));
    expect(response.statusCode).toBe(403);
    expect(response.json().errors[0].code).toBe('merchant_disabled');
  });

  it('answers 422 issuer_unavailable to a production key and records nothing', async () => {
    const [before] = await harness.database.db.select({ total: sql<number>`count(*)::int` }).from(bankCards);
    const response = await issue(cardBody({ merchant_private_key: merchant.productionKey }));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[0].code).toBe('issuer_unavailable');
    const [after] = await harness.database.db.select({ total: sql<number>`count(*)::int` }).from(bankCards);
    expect(after!.total).toBe(before!.total);
  });

  it.each([
    ['no holder_first_name', { holder_first_name: undefined }],
    ['an unknown card_type', { card_type: 'plastic' }],
    ['an unknown field', { pin: '1234' }],
    ['a phone with letters', { phone: '+44 CALL ME' }],
    ['an unassigned country_code', { country_code: 'XX' }],
    ['a holder name with markup', { holder_first_name: '<script>' }],
    ['a bank_account_id that is a string', { bank_account_id: 'abc' }],
  ])('answers 422 in the core envelope to %s', async (_name, extra) => {
    const response = await issue(cardBody(extra));
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ success: false, status: 422, errors: [{ kind: 'validation' }] });
  });

  it('holds at most 5 active cards per bank account', async () => {
    const account = await bankAccount();
    for (let index = 0; index < 5; index += 1) expect((await issue(cardBody({ bank_account_id: account }))).statusCode).toBe(200);
    const sixth = await issue(cardBody({ bank_account_id: account }));
    expect(sixth.statusCode).toBe(422);
    expect(sixth.json().errors[0].code).toBe('card_limit_reached');
  });

  it('keeps the limit when requests for the last places race: exactly 5 active cards', async () => {
    const account = await bankAccount();
    const answers = await Promise.all(Array.from({ length: 8 }, () => issue(cardBody({ bank_account_id: account }))));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(5);
    expect(answers.filter((answer) => answer.statusCode === 422 && answer.json().errors[0].code === 'card_limit_reached')).toHaveLength(3);
    const rows = await harness.database.db.select().from(bankCards).where(eq(bankCards.bankAccountId, account));
    expect(rows.filter((row) => row.status === 'active')).toHaveLength(5);
  });

  describe('app-token authentication of every endpoint', () => {
    type Call = (token: string | null, headers: Record<string, string>) => ReturnType<typeof issue>;
    const endpoints: [string, Call][] = [
      ['POST /bank_cards', (token, headers) => issue(cardBody(), token, headers)],
      ['GET show_card_data', (token, headers) => link(1, 'show_card_data', merchant.sandboxKey, token, headers)],
      ['GET show_set_card_pin', (token, headers) => link(1, 'show_set_card_pin', merchant.sandboxKey, token, headers)],
    ];

    it.each(endpoints)('%s: no header, a session token, a session-token header, an unknown or a revoked app token → 401', async (_name, call) => {
      const session = await openTestSession(harness.database.db, profileId);
      const revoked = await createTestAppToken(harness.database.db, 'revoked service');
      await harness.database.db
        .update(appTokens)
        .set({ revokedAt: new Date() })
        .where(eq(appTokens.tokenPrefix, revoked.slice(0, 10)));
      const cases: [string | null, Record<string, string>, string][] = [
        [null, {}, 'app_token_required'],
        [session, {}, 'app_token_invalid'],
        [null, { 'session-token': session }, 'app_token_required'],
        ['', {}, 'app_token_required'],
        [`app_${'x'.repeat(43)}`, {}, 'app_token_invalid'],
        ['app_short', {}, 'app_token_invalid'],
        [revoked, {}, 'app_token_revoked'],
      ];
      for (const [token, headers, code] of cases) {
        const response = await call(token, headers);
        expect(response.statusCode, `${code}: ${response.body}`).toBe(401);
        expect(response.json()).toMatchObject({ success: false, status: 401, errors: [{ code, kind: 'app_token' }] });
      }
    });
  });
});
