import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankAccounts } from '../../../src/core-banking/store/schema.ts';
import { createTestBusiness, createTestProfile, openTestSession, type TestProfile } from '../../support/core-banking.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { createdId, deleteBankAccount, insertBankAccounts, listBankAccounts, newBankAccount, VALID_IBAN } from './core-bank-accounts-fixtures.ts';

const engines = await testEngines();

describe.each(engines)('core banking bank accounts on %s', (engine) => {
  let harness: Harness;
  let ada: TestProfile;
  let grace: TestProfile;
  let adaSession: string;
  let graceSession: string;
  let businessId: number;

  beforeAll(async () => {
    harness = await startHarness(engine);
    const { db } = harness.database;
    ada = await createTestProfile(db);
    grace = await createTestProfile(db, { name: 'Grace', surname: 'Hopper' });
    adaSession = await openTestSession(db, ada.id);
    graceSession = await openTestSession(db, grace.id);
    businessId = await createTestBusiness(db, [{ id: ada.id, role: 'owner' }]);
  });
  afterAll(async () => harness?.close());

  const row = async (id: number) => (await harness.database.db.select().from(bankAccounts).where(eq(bankAccounts.id, id)))[0];

  describe('authentication', () => {
    const calls = [
      ['POST /api/v1/bank_accounts/new', (session: string) => newBankAccount(harness, session, { value: VALID_IBAN, currency: 'EUR', provider: 'iban' })],
      ['POST /api/v1/bank_accounts/delete', (session: string) => deleteBankAccount(harness, session, { id: 1 })],
      ['GET /api/v1/bank_accounts/list', (session: string) => listBankAccounts(harness, session)],
    ] as const;

    it.each(calls)('%s refuses a request without session-token', async (_name, call) => {
      const response = await call(undefined as unknown as string);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ success: false, status: 401, errors: [{ code: 'session_required', kind: 'session' }] });
    });

    it.each(calls)('%s refuses an expired session and a made-up token', async (_name, call) => {
      const expired = await openTestSession(harness.database.db, ada.id, -1000);
      const response = await call(expired);
      expect(response.statusCode).toBe(401);
      expect(response.json().errors[0]).toMatchObject({ code: 'session_expired', kind: 'session' });
      expect(response.json().errors[0].expiration).toEqual(expect.any(String));
      const madeUp = await call('ses_not-a-real-token');
      expect(madeUp.statusCode).toBe(401);
      expect(madeUp.json().errors[0].code).toBe('session_invalid');
    });
  });

  describe('POST /api/v1/bank_accounts/new', () => {
    it('stores a pending record with normalised identifiers and every details field, ignoring what only the service decides', async () => {
      const response = await newBankAccount(harness, adaSession, {
        id: 999_999,
        token: 'chosen-by-client',
        status: 'approved',
        approved: true,
        verified: true,
        value: 'gb82 west 1234 5698 7654 32',
        currency: 'gbp',
        provider: 'iban',
        swift_code: 'nwbkgb2l',
        uk_sort_code: '60-16-13',
        uk_account_number: '31926819',
        account_holder: 'Ada Lovelace',
        bank_name: 'Westminster Bank',
        paymentSystem: 'FPS',
        unknown_top_level: 'accepted, not kept',
        details: {
          beneficiary_type: 'individual_stakeholder',
          beneficiary_email: 'ada@example.com',
          beneficiary_city: 'London',
          account_number_compass: 'C-001',
          loyalty: { tier: 'gold', points: 12 },
        },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toEqual({ success: true, status: 200, message: expect.any(String), id: expect.any(Number) });
      expect(body.id).not.toBe(999_999);
      const stored = await row(body.id);
      expect(stored).toMatchObject({
        profileId: ada.id,
        status: 'pending',
        verified: false,
        value: VALID_IBAN,
        currency: 'GBP',
        provider: 'iban',
        swiftCode: 'NWBKGB2L',
        ukSortCode: '601613',
        ukAccountNumber: '31926819',
        accountHolder: 'Ada Lovelace',
        paymentSystem: 'FPS',
        details: {
          beneficiary_type: 'individual_stakeholder',
          beneficiary_email: 'ada@example.com',
          beneficiary_city: 'London',
          account_number_compass: 'C-001',
          loyalty: { tier: 'gold', points: 12 },
        },
      });
      expect(stored?.token).toMatch(/^[0-9a-f]{32}$/);
      const listed = (await listBankAccounts(harness, adaSession, { id: body.id })).json().object[0];
      expect(listed).toMatchObject({ id: body.id, status: 'pending', approved: false, verified: false, uk_sort_code: '601613' });
      expect(listed).not.toHaveProperty('unknown_top_level');
    });

    it.each([
      ['an IBAN with a bad checksum', { value: 'GB82WEST12345698765431', provider: 'iban' }, 'value', 'invalid_iban'],
      ['an IBAN-shaped value of another provider', { value: 'DE89370400440532013001' }, 'value', 'invalid_iban'],
      ['a BIC of no country', { value: 'x', swift_code: 'DEUTZZFF' }, 'swift_code', 'invalid_bic'],
      ['a BIC of 9 characters', { value: 'x', swift_code: 'DEUTDEFF5' }, 'swift_code', 'invalid_bic'],
      ['a 5-digit sort code', { value: 'x', uk_sort_code: '60-16-1', uk_account_number: '31926819' }, 'uk_sort_code', 'invalid_sort_code'],
      ['a 7-digit UK account number', { value: 'x', uk_sort_code: '601613', uk_account_number: '3192681' }, 'uk_account_number', 'invalid_account_number'],
      ['a sort code alone', { value: 'x', uk_sort_code: '601613' }, 'uk_account_number', 'missing_field'],
      ['an unknown currency', { value: 'x', currency: 'XYZ' }, 'currency', 'unknown_currency'],
      ['a currency of 5 letters', { value: 'x', currency: 'EUROS' }, 'currency', 'invalid_field'],
      ['a malformed beneficiary e-mail', { value: 'x', details: { beneficiary_email: 'ada@' } }, 'details.beneficiary_email', 'invalid_field'],
      ['an unknown beneficiary type', { value: 'x', details: { beneficiary_type: 'robot' } }, 'details.beneficiary_type', 'invalid_field'],
      [
        'a correspondent IBAN with a bad checksum',
        { value: 'x', details: { corresponding_iban: 'NL91ABNA0417164301' } },
        'details.corresponding_iban',
        'invalid_iban',
      ],
      ['a NUL in value', { value: 'a\u0000b' }, 'value', 'invalid_field'],
      ['a NUL in an extra details field', { value: 'x', details: { extra: 'a\u0000b' } }, 'details.extra', 'invalid_field'],
      ['a NUL in an extra details key', { value: 'x', details: { 'a\u0000b': 'c' } }, 'details', 'invalid_field'],
      ['an extra details string over 255 characters', { value: 'x', details: { note: 'n'.repeat(256) } }, 'details.note', 'invalid_field'],
      ['a full card number on a card account', { value: '4242424242424242', provider: 'card' }, 'value', 'card_number_not_accepted'],
      ['an unknown provider', { value: 'x', provider: 'paypal' }, 'provider', 'invalid_field'],
      ['no value', { currency: 'EUR' }, 'value', 'invalid_field'],
    ])('refuses %s with 422 naming the field', async (_case, fields, field, code) => {
      const before = await listBankAccounts(harness, graceSession, { status: 'pending' });
      const response = await newBankAccount(harness, graceSession, { currency: 'EUR', ...fields });
      expect(response.statusCode).toBe(422);
      const body = response.json();
      expect(body).toMatchObject({ success: false, status: 422 });
      expect(body.errors).toContainEqual(expect.objectContaining({ code, field, kind: 'validation', expiration: null, session: null }));
      expect((await listBankAccounts(harness, graceSession, { status: 'pending' })).json().object).toEqual(before.json().object);
    });

    it.each([
      ['an extra details field', { value: 'x', details: { extra: 'a\ud800' } }],
      ['an extra details key', { value: 'x', details: { '\udfff': 'c' } }],
      ['a beneficiary field', { value: 'x', details: { beneficiary_city: '\ud800' } }],
    ])('refuses a lone surrogate in %s as invalid JSON (400), writing nothing', async (_case, fields) => {
      const before = await listBankAccounts(harness, graceSession, { status: 'pending' });
      const response = await newBankAccount(harness, graceSession, { currency: 'EUR', ...fields });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, status: 400, errors: [{ code: 'invalid_json', kind: null }] });
      expect((await listBankAccounts(harness, graceSession, { status: 'pending' })).json().object).toEqual(before.json().object);
    });

    it('refuses details over 16 KiB', async () => {
      const details = Object.fromEntries(Array.from({ length: 80 }, (_, index) => [`field_${index}`, 'v'.repeat(250)]));
      const response = await newBankAccount(harness, graceSession, { value: 'x', currency: 'EUR', details });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors[0]).toMatchObject({ code: 'details_too_large', field: 'details' });
    });

    it('keeps at most 200 live records per profile; a closed one frees a place', async () => {
      const crowded = await createTestProfile(harness.database.db);
      const session = await openTestSession(harness.database.db, crowded.id);
      const inserted = await insertBankAccounts(harness, crowded.id, 200);
      const refused = await newBankAccount(harness, session, { value: 'one more', currency: 'EUR' });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors[0]).toMatchObject({ code: 'too_many_bank_accounts', kind: 'limit' });
      expect((await deleteBankAccount(harness, session, { id: inserted[0]!.id })).statusCode).toBe(200);
      expect((await newBankAccount(harness, session, { value: 'one more', currency: 'EUR' })).statusCode).toBe(200);
    });
  });

  describe('arbitrary input', () => {
    const fields = ['value', 'currency', 'provider', 'swift_code', 'uk_sort_code', 'uk_account_number', 'account_number', 'details', 'status', 'id'];

    it('never answers 5xx to a record with one field replaced by arbitrary JSON, or to arbitrary details', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...fields),
          fc.jsonValue({ stringUnit: 'binary' }),
          fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue({ stringUnit: 'binary' })),
          async (field, value, details) => {
            for (const body of [
              { value: 'x', currency: 'EUR', [field]: value },
              { value: 'x', currency: 'EUR', details },
            ]) {
              const response = await newBankAccount(harness, graceSession, body);
              expect(response.statusCode, response.body).toBeLessThan(500);
              expect(typeof response.json().success).toBe('boolean');
            }
          },
        ),
        { numRuns: 40 },
      );
    });

    it('never answers 5xx to arbitrary list filters', async () => {
      const filters = [
        'provider',
        'account_number_compass',
        'id',
        'profile_id',
        'id_or_token',
        'value',
        'currency',
        'status',
        'verified',
        'outer_id',
        'page',
        'with_wallet',
      ];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...filters), fc.string({ unit: 'binary', maxLength: 300 }), async (filter, value) => {
          const response = await listBankAccounts(harness, graceSession, { [filter]: value });
          expect(response.statusCode, response.body).toBeLessThan(500);
        }),
        { numRuns: 60 },
      );
    });
  });

  describe('POST /api/v1/bank_accounts/delete', () => {
    it('closes the record: hidden from the list, shown with status=closed, and a second delete succeeds', async () => {
      const id = await createdId(harness, adaSession, { value: 'To close', currency: 'EUR', account_number: '12345678' });
      const response = await deleteBankAccount(harness, adaSession, { id, account_number: '12345678', provider: 'default' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, status: 200 });
      expect((await row(id))?.status).toBe('closed');
      expect((await listBankAccounts(harness, adaSession, { id })).json().object).toEqual([]);
      expect((await listBankAccounts(harness, adaSession, { id, status: 'closed' })).json().object).toMatchObject([{ id, status: 'closed' }]);
      expect((await deleteBankAccount(harness, adaSession, { id })).statusCode).toBe(200);
    });

    it("answers 404 for another person's record, and for an account number or provider that does not match, changing nothing", async () => {
      const id = await createdId(harness, adaSession, { value: 'Kept', currency: 'EUR', account_number: '12345678' });
      for (const [session, body] of [
        [graceSession, { id }],
        [adaSession, { id, account_number: '87654321' }],
        [adaSession, { id, provider: 'iban' }],
        [adaSession, { id: 9_000_000_000 }],
      ] as const) {
        const response = await deleteBankAccount(harness, session, body);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ success: false, status: 404, errors: [{ code: 'not_found', kind: 'bank_account' }] });
      }
      expect((await row(id))?.status).toBe('pending');
    });

    it('refuses an unknown field and a missing id with 422', async () => {
      expect((await deleteBankAccount(harness, adaSession, {})).json().errors[0]).toMatchObject({ field: 'id' });
      expect((await deleteBankAccount(harness, adaSession, { id: 1, everything: true })).statusCode).toBe(422);
    });
  });

  describe('segregated (business) accounts', () => {
    it("lets a member add, list and delete the business account's records", async () => {
      const query = { segregated_account_id: businessId };
      const id = await createdId(harness, adaSession, { value: VALID_IBAN, currency: 'EUR', provider: 'iban' }, query);
      expect((await row(id))?.profileId).toBe(businessId);
      expect((await listBankAccounts(harness, adaSession, query)).json().object.map((record: { id: number }) => record.id)).toEqual([id]);
      expect((await listBankAccounts(harness, adaSession)).json().object.map((record: { id: number }) => record.id)).not.toContain(id);
      expect((await deleteBankAccount(harness, adaSession, { id })).statusCode).toBe(404); // acting as herself
      expect((await deleteBankAccount(harness, adaSession, { id }, query)).statusCode).toBe(200);
    });

    it('refuses a business account the person is not a member of, and one that does not exist, alike', async () => {
      const otherBusiness = await createTestBusiness(harness.database.db, [{ id: grace.id }], 'Compilers Inc');
      for (const segregated_account_id of [otherBusiness, 9_000_000_000, grace.id]) {
        for (const call of [
          () => newBankAccount(harness, adaSession, { value: 'x', currency: 'EUR' }, { segregated_account_id }),
          () => deleteBankAccount(harness, adaSession, { id: 1 }, { segregated_account_id }),
          () => listBankAccounts(harness, adaSession, { segregated_account_id }),
        ]) {
          const response = await call();
          expect(response.statusCode).toBe(403);
          expect(response.json()).toMatchObject({
            success: false,
            status: 403,
            errors: [{ code: 'forbidden', kind: 'segregated_account', field: 'segregated_account_id' }],
          });
        }
      }
    });
  });
});
