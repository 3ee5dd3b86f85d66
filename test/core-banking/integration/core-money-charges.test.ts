import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppToken, createTestBusiness, createTestProfile, openTestSession, coreRequest } from '../../support/core-banking.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { countRows, fundWallet, insertBankAccount, ledgerCheck, walletAgainstEntries } from '../../support/wallets.ts';

const engines = await testEngines();

interface Person {
  id: number;
  email: string;
  phone: string;
  session: string;
}

// Money charges (issue 9): requests for money between people, paid wallet to wallet through the ledger.
describe.each(engines)('core banking money charges on %s', (engine) => {
  let harness: Harness;
  let appToken: string;

  beforeAll(async () => {
    harness = await startHarness(engine);
    appToken = await createTestAppToken(db());
  });
  afterAll(async () => harness?.close());

  const db = () => harness.database.db;
  const person = async (fundedEur = 0): Promise<Person> => {
    const profile = await createTestProfile(db());
    if (fundedEur > 0) await fundWallet(harness.app, appToken, profile.id, await insertBankAccount(db(), profile.id, 'EUR'), fundedEur, 'EUR');
    return { ...profile, session: await openTestSession(db(), profile.id) };
  };
  const call = (who: Person | string | undefined, method: 'GET' | 'POST', url: string, payload?: object) =>
    coreRequest(harness.app, {
      method,
      url,
      ...(who === undefined ? {} : { session: typeof who === 'string' ? who : who.session }),
      ...(payload ? { payload } : {}),
    });
  const charge = (requester: Person, payer: unknown, amount = 12.5, extra: object = {}) =>
    call(requester, 'POST', '/api/v1/social/money/charge', { payer, amount, currency: 'EUR', description: 'Dinner', ...extra });
  const newCharge = async (requester: Person, payer: Person, amount = 12.5) => {
    const response = await charge(requester, payer.id, amount);
    expect(response.statusCode).toBe(200);
    return response.json().charge.id as number;
  };
  const pay = (payer: Person, id: number) => call(payer, 'POST', '/api/v1/social/money/charge/pay', { id });
  const decline = (payer: Person, id: number, privacy?: string) =>
    call(payer, 'POST', '/api/v1/social/money/charge/decline', privacy === undefined ? { id } : { id, privacy });
  const cancel = (requester: Person, id: number) => call(requester, 'POST', '/api/v1/social/money/charge/cancel', { id });
  const list = async (who: Person, query = '') => {
    const response = await call(who, 'GET', `/api/v1/social/money/charges${query}`);
    expect(response.statusCode).toBe(200);
    return response.json() as { charges: { id: number; role: string; status: string }[]; page: number; per_page: number; has_more: boolean };
  };
  const walletMinor = async (who: Person) => {
    const response = await call(who, 'GET', '/api/v1/wallets?currency=EUR');
    return response.json().wallets[0].available_minor as number;
  };
  const statusOf = async (id: number) => {
    const result = (await db().execute(sql`select status from money_charges where id = ${id}`)) as unknown as { rows: { status: string }[] };
    return result.rows[0]?.status;
  };

  it('creates a charge to another person named by id, e-mail or phone, private by default', async () => {
    const [ada, bob] = [await person(), await person()];
    const byId = await charge(ada, bob.id, 12.5);
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toMatchObject({
      success: true,
      status: 200,
      charge: { role: 'requester', requester_id: ada.id, payer_id: bob.id, amount: 12.5, amount_minor: 1250, currency: 'EUR' },
    });
    expect(byId.json().charge).toMatchObject({ description: 'Dinner', privacy: 'private', status: 'pending', resolved_at: null });
    const byEmail = await charge(ada, bob.email.toUpperCase(), 1, { privacy: 'friends' });
    expect(byEmail.json().charge).toMatchObject({ payer_id: bob.id, privacy: 'friends' });
    const byPhone = await charge(ada, bob.phone, 1);
    expect(byPhone.json().charge.payer_id).toBe(bob.id);
    expect((await charge(ada, String(bob.id), 1)).json().charge.payer_id).toBe(bob.id);
  });

  it('answers the same 422 payer_not_found for an unknown payer, yourself, a disabled profile and a business account', async () => {
    const ada = await person();
    const disabled = await createTestProfile(db(), { status: 'disabled' });
    const business = await createTestBusiness(db(), [{ id: ada.id, role: 'owner' }]);
    const answers = [];
    for (const payer of ['nobody@example.com', '+4400000000001', 999_999_999, ada.id, ada.email, disabled.id, disabled.email, business]) {
      const response = await charge(ada, payer);
      expect(response.statusCode).toBe(422);
      answers.push(response.json());
    }
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0].errors[0]).toMatchObject({ code: 'payer_not_found', field: 'payer' });
  });

  it.each([
    [{ amount: 1.005 }, 'too_many_decimals', 'amount'],
    [{ amount: 0 }, 'invalid_field', 'amount'],
    [{ currency: 'XYZ' }, 'invalid_field', 'currency'],
    [{ description: 'd'.repeat(256) }, 'invalid_field', 'description'],
    [{ privacy: 'everyone' }, 'invalid_field', 'privacy'],
    [{ note: 'x' }, 'unknown_field', 'note'],
  ])('refuses a charge with %j (%s on %s)', async (change, code, field) => {
    const [ada, bob] = [await person(), await person()];
    const response = await charge(ada, bob.id, 1, change);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toContainEqual(expect.objectContaining({ code, field }));
  });

  it("lists only the signed-in user's charges, by role and status, newest first", async () => {
    const [ada, bob, carol] = [await person(), await person(), await person()];
    const adaAsksBob = await newCharge(ada, bob);
    const bobAsksAda = await newCharge(bob, ada);
    const carolAsksBob = await newCharge(carol, bob);
    await decline(ada, bobAsksAda);
    expect((await list(ada)).charges.map((row) => [row.id, row.role])).toEqual([
      [bobAsksAda, 'payer'],
      [adaAsksBob, 'requester'],
    ]);
    expect((await list(ada, '?role=payer')).charges.map((row) => row.id)).toEqual([bobAsksAda]);
    expect((await list(ada, '?role=requester')).charges.map((row) => row.id)).toEqual([adaAsksBob]);
    expect((await list(ada, '?status=declined')).charges.map((row) => row.id)).toEqual([bobAsksAda]);
    expect((await list(bob, '?role=payer&status=pending')).charges.map((row) => row.id)).toEqual([carolAsksBob, adaAsksBob]);
    expect((await list(carol)).charges.map((row) => row.id)).toEqual([carolAsksBob]);
    const outsider = await person();
    expect(await list(outsider)).toMatchObject({ charges: [], page: 1, per_page: 20, has_more: false });
    for (const query of ['?role=admin', '?page=0', '?status=lost', '?user_id=1']) {
      expect((await call(ada, 'GET', `/api/v1/social/money/charges${query}`)).statusCode).toBe(422);
    }
  });

  it('pages 20 charges at a time', async () => {
    const [ada, bob] = [await person(), await person()];
    for (let index = 0; index < 21; index += 1) await newCharge(ada, bob, index + 1);
    const first = await list(ada, '?role=requester');
    expect(first).toMatchObject({ page: 1, per_page: 20, has_more: true });
    expect(first.charges).toHaveLength(20);
    const second = await list(ada, '?role=requester&page=2');
    expect(second).toMatchObject({ page: 2, has_more: false });
    expect(second.charges).toHaveLength(1);
  });

  it("pays a charge from the payer's wallet into the requester's, in one ledger movement each", async () => {
    const [ada, bob] = [await person(), await person(30)];
    const id = await newCharge(ada, bob, 12.5);
    const paid = await pay(bob, id);
    expect(paid.statusCode).toBe(200);
    expect(paid.json().charge).toMatchObject({ id, role: 'payer', status: 'paid' });
    expect(paid.json().charge.resolved_at).not.toBeNull();
    expect(await walletMinor(bob)).toBe(1750);
    expect(await walletMinor(ada)).toBe(1250);
    expect(await countRows(db(), sql`select count(*)::text as count from ledger_transactions where charge_id = ${id}`)).toBe(2);
    const again = await pay(bob, id);
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0].code).toBe('charge_not_pending');
    expect(await walletMinor(bob)).toBe(1750);
  });

  it('refuses to pay beyond the wallet and leaves the charge pending', async () => {
    const [ada, bob] = [await person(), await person(10)];
    const id = await newCharge(ada, bob, 10.01);
    const refused = await pay(bob, id);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0].code).toBe('insufficient_funds');
    expect(await statusOf(id)).toBe('pending');
    expect(await walletMinor(bob)).toBe(1000);
    expect(await walletMinor(ada)).toBe(0);
  });

  it('lets only the payer decline, only a pending charge, and records the privacy given', async () => {
    const [ada, bob, carol] = [await person(), await person(), await person()];
    const id = await newCharge(ada, bob);
    for (const who of [ada, carol]) {
      const response = await decline(who, id);
      expect(response.statusCode).toBe(404);
      expect(response.json().errors[0]).toMatchObject({ code: 'not_found', kind: 'not_found' });
    }
    const missing = await decline(bob, 999_999_999);
    expect(missing.json()).toEqual((await decline(carol, id)).json());
    const declined = await decline(bob, id, 'public');
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toEqual({ success: true, status: 200 });
    expect((await list(bob)).charges[0]).toMatchObject({ id, status: 'declined', privacy: 'public' });
    const twice = await decline(bob, id);
    expect(twice.statusCode).toBe(409);
    expect((await pay(bob, id)).statusCode).toBe(409);
    expect((await cancel(ada, id)).statusCode).toBe(409);
  });

  it.each([
    [{}, 'id'],
    [{ id: 'one' }, 'id'],
    [{ id: 1, privacy: 'everyone' }, 'privacy'],
    [{ id: 1, reason: 'no' }, 'reason'],
  ])('refuses a decline body %j with 422 on %s', async (payload, field) => {
    const bob = await person();
    const response = await call(bob, 'POST', '/api/v1/social/money/charge/decline', payload);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toContainEqual(expect.objectContaining({ field }));
  });

  it('lets only the requester cancel, and nobody else pay or see the charge', async () => {
    const [ada, bob, carol] = [await person(), await person(50), await person(50)];
    const id = await newCharge(ada, bob);
    expect((await cancel(bob, id)).statusCode).toBe(404);
    expect((await cancel(carol, id)).statusCode).toBe(404);
    expect((await pay(carol, id)).statusCode).toBe(404);
    expect((await pay(ada, id)).statusCode).toBe(404);
    expect((await list(carol)).charges).toEqual([]);
    const cancelled = await cancel(ada, id);
    expect(cancelled.json()).toEqual({ success: true, status: 200 });
    expect(await statusOf(id)).toBe('cancelled');
    expect((await pay(bob, id)).statusCode).toBe(409);
    expect(await walletMinor(carol)).toBe(5000);
  });

  it('settles a race between pay, decline and cancel on one charge with exactly one winner', async () => {
    const [ada, bob] = [await person(), await person(100)];
    for (let round = 0; round < 3; round += 1) {
      const id = await newCharge(ada, bob, 1);
      const responses = await Promise.all([pay(bob, id), decline(bob, id), cancel(ada, id), pay(bob, id), decline(bob, id), cancel(ada, id)]);
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(5);
    }
    const paidCount = await countRows(db(), sql`select count(*)::text as count from money_charges where payer_id = ${bob.id} and status = 'paid'`);
    expect(await walletMinor(bob)).toBe(10_000 - paidCount * 100);
    expect(await walletMinor(ada)).toBe(paidCount * 100);
  });

  it('never overdraws the payer when charges from both sides are paid at once', async () => {
    const [ada, bob] = [await person(5), await person(5)];
    const adaPays = await Promise.all(Array.from({ length: 4 }, () => newCharge(bob, ada, 2)));
    const bobPays = await Promise.all(Array.from({ length: 4 }, () => newCharge(ada, bob, 2)));
    const responses = await Promise.all([...adaPays.map((id) => pay(ada, id)), ...bobPays.map((id) => pay(bob, id))]);
    for (const response of responses) expect([200, 422]).toContain(response.statusCode);
    const [adaWallet, bobWallet] = [await walletMinor(ada), await walletMinor(bob)];
    expect(adaWallet).toBeGreaterThanOrEqual(0);
    expect(bobWallet).toBeGreaterThanOrEqual(0);
    expect(adaWallet + bobWallet).toBe(1000);
  });

  describe('the session-token header', () => {
    it.each([
      ['no header', undefined, 'session_required'],
      ['a token that is not a session', 'garbage', 'session_invalid'],
    ])('answers 401 for %s on every endpoint', async (_name, token, code) => {
      const endpoints: ['GET' | 'POST', string, object | undefined][] = [
        ['POST', '/api/v1/social/money/charge', { payer: 1, amount: 1, currency: 'EUR' }],
        ['GET', '/api/v1/social/money/charges', undefined],
        ['POST', '/api/v1/social/money/charge/pay', { id: 1 }],
        ['POST', '/api/v1/social/money/charge/decline', { id: 1 }],
        ['POST', '/api/v1/social/money/charge/cancel', { id: 1 }],
        ['GET', '/api/v1/wallets', undefined],
      ];
      for (const [method, url, payload] of endpoints) {
        const response = await call(token, method, url, payload);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toMatchObject({ success: false, status: 401, errors: [{ code, kind: 'session' }] });
      }
    });

    it('answers 401 for an app token in the session-token header', async () => {
      const response = await call(appToken, 'GET', '/api/v1/social/money/charges');
      expect(response.statusCode).toBe(401);
      expect(response.json().errors[0].code).toBe('session_invalid');
    });
  });

  it("shows the signed-in user's wallets only", async () => {
    const [ada, bob] = [await person(3.5), await person()];
    expect((await call(ada, 'GET', '/api/v1/wallets')).json()).toEqual({
      success: true,
      status: 200,
      wallets: [{ currency: 'EUR', available: 3.5, available_minor: 350 }],
    });
    expect((await call(bob, 'GET', '/api/v1/wallets')).json().wallets).toEqual([]);
    expect((await call(bob, 'GET', '/api/v1/wallets?currency=JPY')).json().wallets).toEqual([{ currency: 'JPY', available: 0, available_minor: 0 }]);
    expect((await call(bob, 'GET', '/api/v1/wallets?currency=QQQ')).statusCode).toBe(422);
  });

  it('documents the wallet, charge and transfer endpoints in the OpenAPI document with their credentials', async () => {
    const document = (await harness.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const documented: [string, string, string][] = [
      ['/api/v1/social/money/charge', 'post', 'sessionToken'],
      ['/api/v1/social/money/charges', 'get', 'sessionToken'],
      ['/api/v1/social/money/charge/pay', 'post', 'sessionToken'],
      ['/api/v1/social/money/charge/decline', 'post', 'sessionToken'],
      ['/api/v1/social/money/charge/cancel', 'post', 'sessionToken'],
      ['/api/v1/wallets', 'get', 'sessionToken'],
      ['/api/v2/banking/transfers', 'post', 'appToken'],
    ];
    for (const [path, method, scheme] of documented) {
      const operation = document.paths[path]?.[method];
      expect(operation, path).toBeDefined();
      expect(operation.security).toEqual([{ [scheme]: [] }]);
      expect(operation.summary).toBeTruthy();
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '422']));
    }
  });

  it('leaves the ledger check clean: wallets equal their entries and clearing sums to zero', async () => {
    const check = await ledgerCheck(harness.app, harness.adminKey);
    expect(check.violations).toEqual([]);
    const rows = (await db().execute(sql`select distinct profile_id::text as id from wallet_balances`)) as unknown as { rows: { id: string }[] };
    for (const row of rows.rows) {
      const { balanceMinor, entriesMinor } = await walletAgainstEntries(db(), Number(row.id), 'EUR');
      expect(balanceMinor).toBe(entriesMinor);
    }
    const clearing = (await db().execute(
      sql`select coalesce(sum(balance_minor), 0)::text as total from wallet_balances where account = 'clearing'`,
    )) as unknown as {
      rows: { total: string }[];
    };
    expect(clearing.rows[0]?.total).toBe('0');
  });

  it('finds a paid charge missing its requester side in the ledger check', async () => {
    const [ada, bob] = [await person(), await person(5)];
    const id = await newCharge(ada, bob, 1);
    expect((await pay(bob, id)).statusCode).toBe(200);
    await db().execute(sql`update money_charges set status = 'pending' where id = ${id}`);
    const check = await ledgerCheck(harness.app, harness.adminKey);
    expect(check.violations).toContainEqual(expect.objectContaining({ rule: 'postings_mismatch', ref: { chargeId: id } }));
    await db().execute(sql`update money_charges set status = 'paid' where id = ${id}`);
    expect((await ledgerCheck(harness.app, harness.adminKey)).violations).toEqual([]);
  });
});
