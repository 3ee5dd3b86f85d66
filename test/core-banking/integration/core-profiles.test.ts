import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestBusiness, createTestProfile, coreRequest, openTestSession, type TestProfile } from '../../support/core-banking.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { createdId, deleteBankAccount, VALID_IBAN } from './core-bank-accounts-fixtures.ts';

const engines = await testEngines();

describe.each(engines)('GET /api/v1/profiles/show on %s', (engine) => {
  let harness: Harness;
  let ada: TestProfile;
  let session: string;
  let graceSession: string;
  let businessId: number;
  let gbpId: number;
  let eurId: number;

  beforeAll(async () => {
    harness = await startHarness(engine);
    const { db } = harness.database;
    ada = await createTestProfile(db, { kycStatus: 'approved', walletPinEnabled: true, currentCurrency: 'GBP' });
    const grace = await createTestProfile(db, { name: 'Grace', surname: 'Hopper' });
    session = await openTestSession(db, ada.id);
    graceSession = await openTestSession(db, grace.id);
    businessId = await createTestBusiness(db, [{ id: ada.id }]);
    gbpId = await createdId(harness, session, { value: VALID_IBAN, currency: 'GBP', provider: 'iban' });
    eurId = await createdId(harness, session, { value: 'Euro savings', currency: 'EUR' });
    const closedId = await createdId(harness, session, { value: 'Closed', currency: 'EUR' });
    await deleteBankAccount(harness, session, { id: closedId });
    await createdId(harness, graceSession, { value: 'Grace savings', currency: 'EUR' });
    await createdId(harness, session, { value: 'Company account', currency: 'EUR' }, { segregated_account_id: businessId });
  });
  afterAll(async () => harness?.close());

  const show = (query = '', as: string | null = session) =>
    coreRequest(harness.app, { method: 'GET', url: `/api/v1/profiles/show${query}`, ...(as === null ? {} : { session: as }) });

  it('shows spec 2.7 profile with its bank accounts that are not closed', async () => {
    const response = await show();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      status: 200,
      object: {
        profile: {
          id: ada.id,
          email: ada.email,
          phone: ada.phone,
          name: 'Ada',
          surname: 'Lovelace',
          fullname: 'Ada Lovelace',
          company_name: null,
          wallet_type: 'personal',
          current_currency: 'GBP',
          kyc_status: 'approved',
          wallet_pin_enabled: true,
          bank_accounts: [expect.objectContaining({ id: gbpId, currency: 'GBP', provider: 'iban', approved: false }), expect.objectContaining({ id: eurId })],
          files: [],
        },
      },
    });
  });

  it('shows only the bank accounts of the currency asked for, in any letter case', async () => {
    const ids = async (query: string) => (await show(query)).json().object.profile.bank_accounts.map((record: { id: number }) => record.id);
    expect(await ids('?currency=EUR')).toEqual([eurId]);
    expect(await ids('?currency=gbp')).toEqual([gbpId]);
    expect(await ids('?currency=USD')).toEqual([]);
  });

  it.each([
    ['?currency=EURO', 'currency', 'invalid_field'],
    ['?currency=E1', 'currency', 'invalid_field'],
    ['?currency=XYZ', 'currency', 'unknown_currency'],
    ['?colour=blue', 'colour', 'unknown_field'],
    ['?segregated_account_id=abc', 'segregated_account_id', 'invalid_field'],
  ])('refuses %s with 422', async (query, field, code) => {
    const response = await show(query);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[0]).toMatchObject({ code, field, kind: 'validation' });
  });

  it('shows a business account to its member', async () => {
    const response = await show(`?segregated_account_id=${businessId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().object.profile).toMatchObject({
      id: businessId,
      email: null,
      phone: null,
      company_name: 'Analytical Engines Ltd',
      wallet_type: 'business',
      bank_accounts: [expect.objectContaining({ value: 'Company account' })],
    });
  });

  it('refuses a business account to anyone else with 403, the same whether it exists or not', async () => {
    for (const query of [`?segregated_account_id=${businessId}`, '?segregated_account_id=9000000000']) {
      const response = await show(query, graceSession);
      expect(response.statusCode).toBe(403);
      expect(response.json().errors).toEqual([
        { code: 'forbidden', kind: 'segregated_account', field: 'segregated_account_id', expiration: null, session: null, message: expect.any(String) },
      ]);
    }
  });

  it('documents the profile and bank account endpoints in the OpenAPI document', async () => {
    const document = (await harness.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const [path, method] of [
      ['/api/v1/profiles/show', 'get'],
      ['/api/v1/profiles/upload_file', 'post'],
      ['/api/v1/profiles/delete_file', 'post'],
      ['/api/v1/bank_accounts/new', 'post'],
      ['/api/v1/bank_accounts/delete', 'post'],
      ['/api/v1/bank_accounts/list', 'get'],
    ] as const) {
      const operation = document.paths[path]?.[method];
      expect(operation, path).toBeDefined();
      expect(operation.security).toEqual([{ sessionToken: [] }]);
      expect(operation.summary).toEqual(expect.any(String));
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '422']));
    }
    expect(document.paths['/api/admin/v1/bank-accounts/{id}/{action}'].post.security).toEqual([{ adminKey: [] }]);
    expect(JSON.stringify(document.paths['/api/v1/profiles/upload_file'].post.requestBody)).toContain('multipart/form-data');
  });

  it('refuses no session, an expired one and a disabled profile', async () => {
    expect((await show('', null)).json()).toMatchObject({ status: 401, errors: [{ code: 'session_required' }] });
    const expired = await openTestSession(harness.database.db, ada.id, -60_000);
    expect((await show('', expired)).json()).toMatchObject({ status: 401, errors: [{ code: 'session_expired', kind: 'session' }] });
    const disabled = await createTestProfile(harness.database.db, { status: 'disabled' });
    expect((await show('', await openTestSession(harness.database.db, disabled.id))).statusCode).toBe(403);
  });
});
