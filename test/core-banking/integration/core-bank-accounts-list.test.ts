import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankAccounts, bankCards } from '../../../src/core-banking/store/schema.ts';
import { walletBalances } from '../../../src/ledger/store/schema.ts';
import { createTestBusiness, createTestProfile, openTestSession, type TestProfile } from '../../support/core-banking.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { createdId, insertBankAccounts, listBankAccounts, type Query, VALID_IBAN } from './core-bank-accounts-fixtures.ts';

const engines = await testEngines();

// Every filter of spec 4's GET /api/v1/bank_accounts/list over one person's records, with another person's
// records beside them that must never appear.
describe.each(engines)('GET /api/v1/bank_accounts/list on %s', (engine) => {
  let harness: Harness;
  let ada: TestProfile;
  let grace: TestProfile;
  let session: string;
  let graceSession: string;
  let businessId: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    harness = await startHarness(engine);
    const { db } = harness.database;
    ada = await createTestProfile(db); // Ada Lovelace
    grace = await createTestProfile(db, { name: 'Grace', surname: 'Hopper' });
    session = await openTestSession(db, ada.id);
    graceSession = await openTestSession(db, grace.id);
    const create = (body: Record<string, unknown>, query: Query = {}) => createdId(harness, session, body, query);
    ids['iban'] = await create({ value: VALID_IBAN, currency: 'GBP', provider: 'iban', details: { account_number_compass: 'COMPASS-1' } });
    ids['savings'] = await create({ value: 'Savings', currency: 'EUR' });
    ids['ownCard'] = await create({ value: '424242******4242', currency: 'EUR', provider: 'card' });
    ids['namedOwnCard'] = await create({ value: '555555******4444', currency: 'EUR', provider: 'card', account_holder: ' ADA LOVELACE ' });
    ids['otherHolderCard'] = await create({ value: '400000******0002', currency: 'USD', provider: 'card', account_holder: 'Charles Babbage' });
    ids['closed'] = await create({ value: 'Old account', currency: 'EUR' });
    ids['verified'] = await create({ value: 'Verified account', currency: 'EUR' });
    await db.update(bankAccounts).set({ status: 'closed' }).where(eq(bankAccounts.id, ids['closed']!));
    await db.update(bankAccounts).set({ status: 'approved', verified: true, outerId: 'ext-7' }).where(eq(bankAccounts.id, ids['verified']!));
    ids['grace'] = await createdId(harness, graceSession, { value: 'Savings', currency: 'EUR', details: { account_number_compass: 'COMPASS-1' } });

    await db.insert(walletBalances).values({ profileId: ada.id, currency: 'EUR', account: 'wallet', balanceMinor: 1999 });
    await db.insert(walletBalances).values({ profileId: ada.id, currency: 'EUR', account: 'banks', balanceMinor: -1999 });
    await db.insert(walletBalances).values({ profileId: grace.id, currency: 'GBP', account: 'wallet', balanceMinor: 50_000 });
    const merchant = await harness.createMerchant('Card issuing merchant');
    const card = (bankAccountId: number, status: 'active' | 'closed', panMask: string) => ({
      profileId: ada.id,
      bankAccountId,
      merchantId: merchant.id,
      environment: 'sandbox' as const,
      issuer: 'sandbox',
      cardType: 'virtual' as const,
      status,
      panMask,
      holderFirstName: 'Ada',
      holderLastName: 'Lovelace',
    });
    const cards = await db
      .insert(bankCards)
      .values([
        card(ids['ownCard']!, 'active', '424242******4242'),
        card(ids['ownCard']!, 'closed', '424242******1111'),
        card(ids['ownCard']!, 'active', '424242******9999'),
      ])
      .returning({ id: bankCards.id });
    ids['firstCard'] = cards[0]!.id;
    ids['newestCard'] = cards[2]!.id;

    businessId = await createTestBusiness(db, [{ id: ada.id, role: 'owner' }]);
    ids['businessOwnerCard'] = await create(
      { value: '411111******1111', currency: 'EUR', provider: 'card', account_holder: 'Ada Lovelace' },
      { segregated_account_id: businessId },
    );
    ids['businessOtherCard'] = await create(
      { value: '411111******2222', currency: 'EUR', provider: 'card', account_holder: 'Grace Hopper' },
      { segregated_account_id: businessId },
    );
  });
  afterAll(async () => harness?.close());

  const idsOf = async (query: Query, as = session) => {
    const response = await listBankAccounts(harness, as, query);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().object as { id: number }[]).map((record) => record.id);
  };
  const named = (...names: string[]) => names.map((name) => ids[name]);

  it('lists every record but the closed, oldest first, in spec 2.6 fields', async () => {
    expect(await idsOf({})).toEqual(named('iban', 'savings', 'ownCard', 'namedOwnCard', 'otherHolderCard', 'verified'));
    const response = await listBankAccounts(harness, session, { id: ids['iban']! });
    expect(response.json()).toEqual({
      success: true,
      status: 200,
      object: [
        {
          id: ids['iban'],
          value: VALID_IBAN,
          currency: 'GBP',
          token: expect.stringMatching(/^[0-9a-f]{32}$/),
          status: 'pending',
          provider: 'iban',
          swift_code: null,
          uk_sort_code: null,
          uk_account_number: null,
          approved: false,
          verified: false,
          details: { account_number_compass: 'COMPASS-1' },
          paymentSystem: null,
          bank_address: null,
          bank_name: null,
          recipient_address: null,
          recipient_name: null,
          ref_code: null,
          account_holder: null,
          account_number: null,
          outer_id: null,
        },
      ],
    });
  });

  it.each<[string, Query, string[]]>([
    ['provider', { provider: 'card' }, ['ownCard', 'namedOwnCard', 'otherHolderCard']],
    ['card_accounts', { card_accounts: true }, ['ownCard', 'namedOwnCard', 'otherHolderCard']],
    ['card_accounts=false (no effect)', { card_accounts: false, currency: 'GBP' }, ['iban']],
    ['owners_card_accounts', { owners_card_accounts: true }, ['ownCard', 'namedOwnCard']],
    ['account_number_compass', { account_number_compass: 'COMPASS-1' }, ['iban']],
    ['id', { id: 0 }, ['savings']],
    ['id_or_token with an id', { id_or_token: 'id:savings' }, ['savings']],
    ['value', { value: 'Savings' }, ['savings']],
    ['value of an IBAN written with spaces and small letters', { value: 'gb82 west 1234 5698 7654 32' }, ['iban']],
    ['currency', { currency: 'usd' }, ['otherHolderCard']],
    ['status', { status: 'approved' }, ['verified']],
    ['status=closed', { status: 'closed' }, ['closed']],
    ['verified=true', { verified: true }, ['verified']],
    ['verified=false', { verified: false, provider: 'default' }, ['savings']],
    ['outer_id', { outer_id: 'ext-7' }, ['verified']],
    ['two filters together', { provider: 'card', currency: 'EUR' }, ['ownCard', 'namedOwnCard']],
    ['a filter nothing matches', { outer_id: 'nobody' }, []],
  ])('filters by %s', async (_name, query, expected) => {
    const resolved = Object.fromEntries(
      Object.entries(query).map(([key, value]) => {
        if (key === 'id') return [key, ids['savings']!];
        if (value === 'id:savings') return [key, String(ids['savings'])];
        return [key, value];
      }),
    );
    expect(await idsOf(resolved)).toEqual(named(...expected));
  });

  it("matches id_or_token on the token too, and never on another person's record", async () => {
    const { token } = (await listBankAccounts(harness, session, { id: ids['savings']! })).json().object[0];
    expect(await idsOf({ id_or_token: token })).toEqual(named('savings'));
    const graceToken = (await listBankAccounts(harness, graceSession, {})).json().object[0].token;
    expect(await idsOf({ id_or_token: graceToken })).toEqual([]);
    expect(await idsOf({ id_or_token: String(ids['grace']) })).toEqual([]);
    expect(await idsOf({ id: ids['grace']! })).toEqual([]);
  });

  it('answers only_check with a boolean', async () => {
    expect((await listBankAccounts(harness, session, { only_check: true, value: 'Savings' })).json()).toEqual({ success: true, status: 200, object: true });
    expect((await listBankAccounts(harness, session, { only_check: true, value: 'Nothing' })).json()).toEqual({ success: true, status: 200, object: false });
    expect((await listBankAccounts(harness, session, { only_check: true, id: ids['grace']! })).json().object).toBe(false);
  });

  it('adds wallet { available } in major units with with_wallet: 0 where there is no wallet', async () => {
    const records = (await listBankAccounts(harness, session, { with_wallet: true })).json().object as { id: number; wallet: { available: number } }[];
    const walletOf = (name: string) => records.find((record) => record.id === ids[name])?.wallet;
    expect(walletOf('savings')).toEqual({ available: 19.99 });
    expect(walletOf('iban')).toEqual({ available: 0 }); // GBP: grace's GBP wallet is hers alone
    expect(walletOf('otherHolderCard')).toEqual({ available: 0 });
    expect((await listBankAccounts(harness, session, {})).json().object[0]).not.toHaveProperty('wallet');
  });

  it('adds the live cards with with_cards', async () => {
    const records = (await listBankAccounts(harness, session, { with_cards: true, provider: 'card' })).json().object;
    expect(records[0]).toMatchObject({
      id: ids['ownCard'],
      bank_card_tokens: [String(ids['firstCard']), String(ids['newestCard'])],
      card_id: ids['newestCard'],
      card_mask: '424242******9999',
    });
    expect(records[1]).toMatchObject({ id: ids['namedOwnCard'], bank_card_tokens: [], card_id: null, card_mask: null });
    expect((await listBankAccounts(harness, session, { provider: 'card' })).json().object[0]).not.toHaveProperty('bank_card_tokens');
  });

  it('pages by 20 up to page 1000', async () => {
    const many = await createTestProfile(harness.database.db);
    const manySession = await openTestSession(harness.database.db, many.id);
    const inserted = (await insertBankAccounts(harness, many.id, 45)).map((row) => row.id);
    expect(await idsOf({}, manySession)).toEqual(inserted.slice(0, 20));
    expect(await idsOf({ page: 2 }, manySession)).toEqual(inserted.slice(20, 40));
    expect(await idsOf({ page: 3 }, manySession)).toEqual(inserted.slice(40));
    expect(await idsOf({ page: 1000 }, manySession)).toEqual([]);
    for (const page of [0, 1001, 'two']) {
      const response = await listBankAccounts(harness, manySession, { page });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors[0]).toMatchObject({ field: 'page', kind: 'validation' });
    }
  });

  it('takes the filters in the filters[name] form too', async () => {
    expect(await idsOf({ 'filters[provider]': 'iban' })).toEqual(named('iban'));
    expect(await idsOf({ 'filters[card_accounts]': true, 'filters[currency]': 'USD' })).toEqual(named('otherHolderCard'));
    const both = await listBankAccounts(harness, session, { provider: 'iban', 'filters[provider]': 'card' });
    expect(both.statusCode).toBe(422);
    expect(both.json().errors[0]).toMatchObject({ code: 'duplicate_field', field: 'provider' });
  });

  it.each<[string, Query, string]>([
    ['an unknown filter', { colour: 'blue' }, 'colour'],
    ['an unknown provider', { provider: 'paypal' }, 'provider'],
    ['an unknown status', { status: 'frozen' }, 'status'],
    ['a flag that is not a boolean', { with_wallet: 'maybe' }, 'with_wallet'],
    ['an id that is not a number', { id: 'seven' }, 'id'],
  ])('refuses %s with 422', async (_name, query, field) => {
    const response = await listBankAccounts(harness, session, query);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[0]).toMatchObject({ field, kind: 'validation' });
  });

  describe('profile_id and segregated_account_id', () => {
    it("lists a business account's records by profile_id or segregated_account_id for a member", async () => {
      expect(await idsOf({ profile_id: businessId })).toEqual(named('businessOwnerCard', 'businessOtherCard'));
      expect(await idsOf({ segregated_account_id: businessId })).toEqual(named('businessOwnerCard', 'businessOtherCard'));
      expect(await idsOf({ segregated_account_id: businessId, profile_id: ada.id })).toEqual(
        named('iban', 'savings', 'ownCard', 'namedOwnCard', 'otherHolderCard', 'verified'),
      );
      expect(await idsOf({ profile_id: ada.id })).toContain(ids['savings']);
    });

    it('owners_card_accounts of a business account are those its owners hold', async () => {
      expect(await idsOf({ segregated_account_id: businessId, owners_card_accounts: true })).toEqual(named('businessOwnerCard'));
    });

    it("refuses another person's profile_id with 403, and shows none of their records", async () => {
      for (const query of [{ profile_id: grace.id }, { profile_id: grace.id, only_check: true }, { profile_id: 9_000_000_000 }] as Query[]) {
        const response = await listBankAccounts(harness, session, query);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({
          success: false,
          status: 403,
          errors: [{ code: 'forbidden', kind: 'profile', field: 'profile_id', expiration: null, session: null, message: expect.any(String) }],
        });
      }
      expect(await idsOf({ profile_id: businessId }, graceSession).catch(() => 'refused')).toBe('refused');
    });
  });
});
