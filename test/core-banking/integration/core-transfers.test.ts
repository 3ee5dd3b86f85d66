import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenDigest } from '../../../src/platform/lib/core-tokens.ts';
import { createTestAppToken, createTestProfile, openTestSession } from '../../support/core-banking.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { countRows, insertBankAccount, ledgerCheck, newTransferToken, postTransfer, walletAgainstEntries, type TransferFields } from '../../support/wallets.ts';

const engines = await testEngines();

// POST /api/v2/banking/transfers (spec 4, issue 9) through the real app on a real database.
describe.each(engines)('core banking transfers on %s', (engine) => {
  let harness: Harness;
  let appToken: string;
  let profile: { id: number };
  let eurAccount: number;

  beforeAll(async () => {
    harness = await startHarness(engine);
    appToken = await createTestAppToken(db());
    profile = await createTestProfile(db());
    eurAccount = await insertBankAccount(db(), profile.id, 'EUR');
  });
  afterAll(async () => harness?.close());

  const db = () => harness.database.db;
  const transfer = (fields: Partial<TransferFields> = {}): TransferFields => ({
    profile_id: profile.id,
    amount: 10.5,
    currency: 'EUR',
    direction: 'credit',
    provider: 'sepa_partner',
    token: newTransferToken(),
    bank_account_id: eurAccount,
    ...fields,
  });
  const post = (payload: unknown, token: string | undefined = appToken) => postTransfer(harness.app, token, payload);
  const walletOf = async (profileId: number, currency = 'EUR') => {
    const session = await openTestSession(db(), profileId);
    const response = await harness.app.inject({ method: 'GET', url: `/api/v1/wallets?currency=${currency}`, headers: { 'session-token': session } });
    expect(response.statusCode).toBe(200);
    return response.json().wallets[0] as { currency: string; available: number; available_minor: number };
  };
  const transfersWith = (token: string) => countRows(db(), sql`select count(*)::text as count from bank_transfers where token = ${token}`);
  const postingsOf = (transferId: number) => countRows(db(), sql`select count(*)::text as count from ledger_transactions where transfer_id = ${transferId}`);

  it('credits the wallet through the ledger and answers the transfer and the wallet', async () => {
    const person = await createTestProfile(db());
    const account = await insertBankAccount(db(), person.id, 'EUR');
    const body = transfer({ profile_id: person.id, bank_account_id: account, amount: 10.5 });
    const response = await post(body);
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer).toMatchObject({
      success: true,
      status: 200,
      transfer: { token: body.token, profile_id: person.id, bank_account_id: account, direction: 'credit', amount: 10.5, amount_minor: 1050, currency: 'EUR' },
      wallet: { currency: 'EUR', available: 10.5, available_minor: 1050 },
    });
    expect(answer.transfer.provider).toBe('sepa_partner');
    expect(Date.parse(answer.transfer.created_at)).not.toBeNaN();
    expect(await postingsOf(answer.transfer.id)).toBe(1);
    expect(await walletOf(person.id)).toEqual({ currency: 'EUR', available: 10.5, available_minor: 1050 });
  });

  it('debits the wallet, and refuses a debit the wallet cannot cover without writing anything', async () => {
    const person = await createTestProfile(db());
    const account = await insertBankAccount(db(), person.id, 'EUR');
    expect((await post(transfer({ profile_id: person.id, bank_account_id: account, amount: 20 }))).statusCode).toBe(200);
    const debit = await post(transfer({ profile_id: person.id, bank_account_id: account, amount: 4.25, direction: 'debit' }));
    expect(debit.statusCode).toBe(200);
    expect(debit.json().wallet).toEqual({ currency: 'EUR', available: 15.75, available_minor: 1575 });

    const overdraw = transfer({ profile_id: person.id, bank_account_id: account, amount: 15.76, direction: 'debit' });
    const refused = await post(overdraw);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ success: false, status: 422, errors: [{ code: 'insufficient_funds', field: 'amount' }] });
    expect(await transfersWith(overdraw.token)).toBe(0);
    expect(await walletOf(person.id)).toMatchObject({ available_minor: 1575 });

    const exact = await post(transfer({ profile_id: person.id, bank_account_id: account, amount: 15.75, direction: 'debit' }));
    expect(exact.json().wallet).toEqual({ currency: 'EUR', available: 0, available_minor: 0 });
  });

  it('refuses a debit of a wallet that never held the currency', async () => {
    const person = await createTestProfile(db());
    const account = await insertBankAccount(db(), person.id, 'USD');
    const refused = await post(transfer({ profile_id: person.id, bank_account_id: account, currency: 'USD', direction: 'debit', amount: 1 }));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0].code).toBe('insufficient_funds');
  });

  it.each([
    [{ amount: 10.555 }, 'too_many_decimals', 'amount'],
    [{ amount: 0.1 + 0.2 }, 'too_many_decimals', 'amount'],
    [{ amount: 100_000_000_000.01 }, 'amount_too_large', 'amount'],
    [{ amount: 1e21 }, 'invalid_amount', 'amount'],
    [{ amount: 0 }, 'invalid_field', 'amount'],
    [{ amount: -5 }, 'invalid_field', 'amount'],
    [{ amount: '10' + '.5x' }, 'invalid_field', 'amount'],
    [{ currency: 'ABC' }, 'invalid_field', 'currency'],
    [{ currency: 'eur' }, 'invalid_field', 'currency'],
    [{ direction: 'sideways' }, 'invalid_field', 'direction'],
    [{ token: '' }, 'invalid_field', 'token'],
    [{ token: 'has space' }, 'invalid_field', 'token'],
    [{ token: 'x'.repeat(129) }, 'invalid_field', 'token'],
    [{ provider: '' }, 'invalid_field', 'provider'],
    [{ provider: 'p'.repeat(65) }, 'invalid_field', 'provider'],
    [{ profile_id: 0 }, 'invalid_field', 'profile_id'],
    [{ bank_account_id: 1.5 }, 'invalid_field', 'bank_account_id'],
    [{ extra: true }, 'unknown_field', 'extra'],
  ])('answers 422 for %j: %s on %s, nothing written', async (change, code, field) => {
    const body = { ...transfer(), ...change };
    const response = await post(body);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ success: false, status: 422 });
    expect(response.json().errors).toContainEqual(expect.objectContaining({ code, field }));
    if (typeof body.token === 'string') expect(await transfersWith(body.token)).toBe(0);
  });

  it('answers 422 for a JPY amount with decimals', async () => {
    const account = await insertBankAccount(db(), profile.id, 'JPY');
    const response = await post(transfer({ currency: 'JPY', bank_account_id: account, amount: 100.5 }));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[0]).toMatchObject({ code: 'too_many_decimals', field: 'amount' });
    expect((await post(transfer({ currency: 'JPY', bank_account_id: account, amount: 100 }))).json().transfer.amount_minor).toBe(100);
  });

  it.each(['profile_id', 'amount', 'currency', 'direction', 'provider', 'token', 'bank_account_id'])('requires %s', async (field) => {
    const body: Record<string, unknown> = { ...transfer() };
    delete body[field];
    const response = await post(body);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toContainEqual(expect.objectContaining({ field }));
  });

  it('answers 404 for a profile that does not exist or is disabled', async () => {
    const missing = await post(transfer({ profile_id: 999_999_999 }));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0]).toMatchObject({ code: 'profile_not_found', field: 'profile_id' });
    const disabled = await createTestProfile(db(), { status: 'disabled' });
    const account = await insertBankAccount(db(), disabled.id, 'EUR');
    const refused = await post(transfer({ profile_id: disabled.id, bank_account_id: account }));
    expect(refused.statusCode).toBe(404);
  });

  it("refuses a bank account that is another profile's, in another currency, or not approved", async () => {
    const other = await createTestProfile(db());
    const cases: [number, string][] = [
      [await insertBankAccount(db(), other.id, 'EUR'), 'bank_account_not_found'],
      [999_999_999, 'bank_account_not_found'],
      [await insertBankAccount(db(), profile.id, 'GBP'), 'bank_account_currency_mismatch'],
      [await insertBankAccount(db(), profile.id, 'EUR', 'pending'), 'bank_account_not_approved'],
      [await insertBankAccount(db(), profile.id, 'EUR', 'closed'), 'bank_account_not_approved'],
    ];
    for (const [bankAccountId, code] of cases) {
      const body = transfer({ bank_account_id: bankAccountId });
      const response = await post(body);
      expect(response.statusCode).toBe(422);
      expect(response.json().errors[0]).toMatchObject({ code, field: 'bank_account_id' });
      expect(await transfersWith(body.token)).toBe(0);
    }
  });

  it('answers a retry with the same token and body with the same transfer, posted once', async () => {
    const person = await createTestProfile(db());
    const account = await insertBankAccount(db(), person.id, 'EUR');
    const body = transfer({ profile_id: person.id, bank_account_id: account, amount: 7.1 });
    const first = await post(body);
    // The same body in another key order and with 7.10 for 7.1 is the same request.
    const reordered = `{"bank_account_id":${account},"token":"${body.token}","provider":"sepa_partner","direction":"credit","currency":"EUR","amount":7.10,"profile_id":${person.id}}`;
    const again = await postTransfer(harness.app, appToken, reordered, { 'content-type': 'application/json' });
    expect(again.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().transfer).toEqual(first.json().transfer);
    expect(await transfersWith(body.token)).toBe(1);
    expect(await postingsOf(first.json().transfer.id)).toBe(1);
    expect(await walletOf(person.id)).toMatchObject({ available_minor: 710 });
  });

  it('refuses the same token with another body (422 token_reused) and changes nothing', async () => {
    const person = await createTestProfile(db());
    const account = await insertBankAccount(db(), person.id, 'EUR');
    const body = transfer({ profile_id: person.id, bank_account_id: account, amount: 3 });
    expect((await post(body)).statusCode).toBe(200);
    for (const change of [{ amount: 4 }, { direction: 'debit' as const }, { provider: 'swift_partner' }]) {
      const reused = await post({ ...body, ...change });
      expect(reused.statusCode).toBe(422);
      expect(reused.json().errors[0]).toMatchObject({ code: 'token_reused', field: 'token' });
    }
    expect(await transfersWith(body.token)).toBe(1);
    expect(await walletOf(person.id)).toMatchObject({ available_minor: 300 });
  });

  it('posts once when 20 requests with one token arrive together, and every one answers that transfer', async () => {
    const person = await createTestProfile(db());
    const account = await insertBankAccount(db(), person.id, 'EUR');
    const body = transfer({ profile_id: person.id, bank_account_id: account, amount: 12.34 });
    const responses = await Promise.all(Array.from({ length: 20 }, () => post(body)));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    const ids = new Set(responses.map((response) => response.json().transfer.id));
    expect(ids.size).toBe(1);
    expect(responses.filter((response) => response.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(await transfersWith(body.token)).toBe(1);
    expect(await postingsOf([...ids][0])).toBe(1);
    expect(await walletOf(person.id)).toMatchObject({ available_minor: 1234 });
  });

  it('never overdraws a wallet under 20 concurrent debits of different tokens', async () => {
    const person = await createTestProfile(db());
    const account = await insertBankAccount(db(), person.id, 'EUR');
    expect((await post(transfer({ profile_id: person.id, bank_account_id: account, amount: 5 }))).statusCode).toBe(200);
    const debits = await Promise.all(
      Array.from({ length: 20 }, () => post(transfer({ profile_id: person.id, bank_account_id: account, amount: 1, direction: 'debit' }))),
    );
    const statuses = debits.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 422)).toHaveLength(15);
    expect(await walletOf(person.id)).toMatchObject({ available_minor: 0 });
  });

  describe('the app-token header', () => {
    it.each([
      ['no header', undefined, {}, 'app_token_required'],
      ['an empty header', '', {}, 'app_token_invalid'],
      ['a token that is not an app token', 'not-a-token', {}, 'app_token_invalid'],
    ])('answers 401 for %s', async (_name, token, headers, code) => {
      const response = await postTransfer(harness.app, token, transfer(), headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ success: false, status: 401, errors: [{ kind: 'app_token' }] });
      expect([code, 'app_token_required']).toContain(response.json().errors[0].code);
    });

    it('answers 401 for a well-formed app token that was never issued, and for a revoked one', async () => {
      const unknown = (await createTestAppToken(db())).replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
      expect((await post(transfer(), unknown)).json().errors[0].code).toBe('app_token_invalid');
      const revoked = await createTestAppToken(db(), 'revoked service');
      await db().execute(sql`update app_tokens set revoked_at = now() where token_digest = ${tokenDigest(revoked)}`);
      const response = await post(transfer(), revoked);
      expect(response.statusCode).toBe(401);
      expect(response.json().errors[0].code).toBe('app_token_revoked');
    });

    it('answers 401 for a session token in the app-token header, and for an app token sent as session-token', async () => {
      const session = await openTestSession(db(), profile.id);
      const body = transfer();
      const asAppToken = await post(body, session);
      expect(asAppToken.statusCode).toBe(401);
      expect(asAppToken.json().errors[0].code).toBe('app_token_invalid');
      const asSession = await postTransfer(harness.app, undefined, body, { 'session-token': appToken });
      expect(asSession.statusCode).toBe(401);
      expect(asSession.json().errors[0].code).toBe('app_token_required');
      expect(await transfersWith(body.token)).toBe(0);
    });
  });

  it('leaves the ledger check clean, each wallet equal to the sum of its entries', async () => {
    const check = await ledgerCheck(harness.app, harness.adminKey);
    expect(check.violations).toEqual([]);
    expect(check.success).toBe(true);
    const profiles = (await db().execute(sql`select distinct profile_id::text as id, currency from wallet_balances`)) as unknown as {
      rows: { id: string; currency: string }[];
    };
    expect(profiles.rows.length).toBeGreaterThan(5);
    for (const row of profiles.rows) {
      const { balanceMinor, entriesMinor } = await walletAgainstEntries(db(), Number(row.id), row.currency);
      expect(balanceMinor).toBe(entriesMinor);
    }
  });

  it('finds a wallet changed behind the ledger, and a transfer without its posting', async () => {
    const person = await createTestProfile(db());
    const account = await insertBankAccount(db(), person.id, 'EUR');
    const answer = (await post(transfer({ profile_id: person.id, bank_account_id: account, amount: 2 }))).json();
    await db().execute(sql`update wallet_balances set balance_minor = balance_minor + 1 where profile_id = ${person.id} and account = 'wallet'`);
    await db().execute(sql`update bank_transfers set amount_minor = 201 where id = ${answer.transfer.id}`);
    const check = await ledgerCheck(harness.app, harness.adminKey);
    expect(check.success).toBe(false);
    expect(check.violations).toContainEqual(
      expect.objectContaining({ rule: 'balance_mismatch', ref: { profileId: person.id, currency: 'EUR', account: 'wallet' } }),
    );
    expect(check.violations).toContainEqual(expect.objectContaining({ rule: 'postings_mismatch', ref: { transferId: answer.transfer.id } }));
    await db().execute(sql`update wallet_balances set balance_minor = balance_minor - 1 where profile_id = ${person.id} and account = 'wallet'`);
    await db().execute(sql`update bank_transfers set amount_minor = 200 where id = ${answer.transfer.id}`);
    expect((await ledgerCheck(harness.app, harness.adminKey)).violations).toEqual([]);
  });
});
