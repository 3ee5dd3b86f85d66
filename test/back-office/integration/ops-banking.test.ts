import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRowsOf } from '../../support/audit.ts';
import { createTestAppToken, createTestProfile, type TestProfile } from '../../support/core-banking.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { signedInOperators, type OpsClient } from '../../support/ops.ts';
import { fundWallet, insertBankAccount } from '../../support/wallets.ts';

const engines = await testEngines();

// The console's core banking pages: the bank-account review queue, users, app tokens; each action by a role that may,
// refused to a role that may not (a forged POST changes nothing), and recorded once in the audit log.
describe.each(engines)('console core banking pages on %s', (engine) => {
  let harness: Harness;
  let admin: OpsClient;
  let support: OpsClient;
  let finance: OpsClient;
  let ada: TestProfile;

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await harness.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const auditOf = async (subjectType: string, subjectId: number | string) =>
    (await auditRowsOf(harness.database, { subjectType, subjectId })).filter((row) => row.actor.startsWith('operator:'));
  const bankAccountStatus = async (id: number) => (await rows<{ status: string }>(sql`select status from bank_accounts where id = ${id}`))[0]?.status;

  beforeAll(async () => {
    harness = await startHarness(engine);
    ({ admin, support, finance } = await signedInOperators(harness));
    ada = await createTestProfile(harness.database.db, { name: 'Ada', surname: 'Byron', companyName: 'Analytical Engines' });
  });
  afterAll(async () => harness?.close());

  it('opens each page to the roles that may and refuses the others', async () => {
    const table: [string, number, number, number][] = [
      ['/ops/bank-accounts', 200, 200, 403],
      ['/ops/bank-accounts?status=any&page=2', 200, 200, 403],
      ['/ops/users', 200, 200, 403],
      [`/ops/users/${ada.id}`, 200, 200, 403],
      ['/ops/app-tokens', 200, 403, 403],
    ];
    for (const [path, adminStatus, supportStatus, financeStatus] of table) {
      const statuses = [(await admin.get(path)).statusCode, (await support.get(path)).statusCode, (await finance.get(path)).statusCode];
      expect({ path, statuses }).toEqual({ path, statuses: [adminStatus, supportStatus, financeStatus] });
    }
  });

  it('lets support approve a pending bank account, recorded once with the outer id', async () => {
    const id = await insertBankAccount(harness.database.db, ada.id, 'EUR', 'pending');
    const queue = await support.get('/ops/bank-accounts');
    expect(queue.body).toContain(`action="/ops/bank-accounts/${id}/approve"`);
    const approved = await support.post(`/ops/bank-accounts/${id}/approve`, { outer_id: 'partner-77' }, '/ops/bank-accounts');
    expect(approved.statusCode).toBe(303);
    expect(approved.headers.location).toBe('/ops/bank-accounts?done=approve');
    expect(await bankAccountStatus(id)).toBe('approved');
    expect(await auditOf('bank_account', id)).toEqual([
      {
        actor: `operator:${support.operatorId}`,
        action: 'bank_account.approve',
        subject_type: 'bank_account',
        subject_id: String(id),
        before: { status: 'pending', outer_id: null },
        after: { status: 'approved', outer_id: 'partner-77' },
      },
    ]);
    // a decision that no longer applies is shown, and changes nothing
    const again = await admin.post(`/ops/bank-accounts/${id}/decline`, {}, '/ops/bank-accounts');
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('a approved bank account cannot be declined');
    expect(await bankAccountStatus(id)).toBe('approved');
  });

  it('lets an admin decline a bank account; finance cannot approve one, however the form is sent', async () => {
    const declined = await insertBankAccount(harness.database.db, ada.id, 'GBP', 'pending');
    expect((await admin.post(`/ops/bank-accounts/${declined}/decline`, {}, '/ops/bank-accounts')).statusCode).toBe(303);
    expect(await auditOf('bank_account', declined)).toEqual([
      expect.objectContaining({ actor: `operator:${admin.operatorId}`, action: 'bank_account.decline', after: { status: 'declined' } }),
    ]);
    const untouched = await insertBankAccount(harness.database.db, ada.id, 'USD', 'pending');
    expect((await finance.post(`/ops/bank-accounts/${untouched}/approve`, {})).statusCode).toBe(403);
    expect(await bankAccountStatus(untouched)).toBe('pending');
    expect(await auditOf('bank_account', untouched)).toEqual([]);
  });

  it("shows a user's profile, wallets and bank accounts, and finds users by e-mail and by name", async () => {
    const bankAccountId = await insertBankAccount(harness.database.db, ada.id, 'EUR', 'approved');
    await fundWallet(harness.app, await createTestAppToken(harness.database.db), ada.id, bankAccountId, 12.5, 'EUR');
    const page = await support.get(`/ops/users/${ada.id}`);
    expect(page.body).toContain(ada.email);
    expect(page.body).toContain('12.50 EUR');
    expect(page.body).toContain(`<th scope="row">${bankAccountId}</th>`);
    expect(page.body).not.toContain(`action="/ops/users/${ada.id}"`); // support reads, never changes
    expect((await admin.get(`/ops/users/${ada.id}`)).body).toContain(`action="/ops/users/${ada.id}"`);
    for (const search of [ada.email.toUpperCase(), 'byron', 'analytical eng', String(ada.id)]) {
      expect((await support.get(`/ops/users?q=${encodeURIComponent(search)}`)).body).toContain(`href="/ops/users/${ada.id}"`);
    }
    expect((await support.get('/ops/users?q=nobody-by-this-name')).body).toContain('No profiles match');
    expect((await support.get(`/ops/users?q=${'x'.repeat(101)}`)).statusCode).toBe(400);
    expect((await admin.get('/ops/users/999999999')).statusCode).toBe(404);
  });

  it('lets an admin disable a user and set the KYC status, recorded once; support cannot', async () => {
    const grace = await createTestProfile(harness.database.db, { name: 'Grace', surname: 'Hopper' });
    const form = { status: 'disabled', kyc_status: 'approved', wallet_pin_enabled: 'off' };
    expect((await support.post(`/ops/users/${grace.id}`, form)).statusCode).toBe(403);
    expect(await rows(sql`select status, kyc_status from users where id = ${grace.id}`)).toEqual([{ status: 'active', kyc_status: 'not_started' }]);
    const changed = await admin.post(`/ops/users/${grace.id}`, form, `/ops/users/${grace.id}`);
    expect(changed.statusCode).toBe(303);
    expect(changed.headers.location).toBe(`/ops/users/${grace.id}?done=changed`);
    expect(await rows(sql`select status, kyc_status from users where id = ${grace.id}`)).toEqual([{ status: 'disabled', kyc_status: 'approved' }]);
    expect(await auditOf('user', grace.id)).toEqual([
      {
        actor: `operator:${admin.operatorId}`,
        action: 'user.update',
        subject_type: 'user',
        subject_id: String(grace.id),
        before: { status: 'active', kyc_status: 'not_started' },
        after: { status: 'disabled', kyc_status: 'approved' },
      },
    ]);
    const refused = await admin.post(`/ops/users/${grace.id}`, { ...form, kyc_status: 'maybe' }, `/ops/users/${grace.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('KYC status is one of');
  });

  it('creates an app token shown once, lists its prefix, revokes it; the token never reaches the audit log', async () => {
    const created = await admin.post('/ops/app-tokens', { name: 'card-operations' }, '/ops/app-tokens');
    expect(created.statusCode).toBe(200);
    expect(created.headers['cache-control']).toBe('no-store');
    const token = /id="new-app-token">([^<]+)</.exec(created.body)?.[1] ?? '';
    expect(token).toMatch(/^app_/);
    const [record] = await rows<{ id: string; token_prefix: string }>(sql`select id::text, token_prefix from app_tokens where name = 'card-operations'`);
    const id = Number(record?.id);
    const list = await admin.get('/ops/app-tokens');
    expect(list.body).toContain(record?.token_prefix);
    expect(list.body).not.toContain(token);

    expect((await admin.post(`/ops/app-tokens/${id}/revoke`, {}, '/ops/app-tokens')).headers.location).toBe('/ops/app-tokens?done=revoked');
    const events = await auditOf('app_token', id);
    expect(events).toEqual([
      expect.objectContaining({ actor: `operator:${admin.operatorId}`, action: 'app_token.create', before: null }),
      expect.objectContaining({ actor: `operator:${admin.operatorId}`, action: 'app_token.revoke', before: { revoked_at: null } }),
    ]);
    expect(events[0]?.after).toMatchObject({ name: 'card-operations', token_digest: '[redacted]' });
    expect(events[1]?.after?.['revoked_at']).toEqual(expect.any(String));
    const leaks = await rows(sql`select id from audit_events where position(${token} in coalesce(before::text, '') || coalesce(after::text, '')) > 0`);
    expect(leaks).toEqual([]);
  });

  it('refuses app tokens to support: no token made, none revoked', async () => {
    const existing = await createTestAppToken(harness.database.db, 'existing-service');
    const [record] = await rows<{ id: string }>(sql`select id::text from app_tokens where name = 'existing-service'`);
    const count = async () => (await rows<{ n: number }>(sql`select count(*)::int as n from app_tokens`))[0]?.n;
    const before = await count();
    expect((await support.post('/ops/app-tokens', { name: 'forged' })).statusCode).toBe(403);
    expect((await support.post(`/ops/app-tokens/${record?.id}/revoke`, {})).statusCode).toBe(403);
    expect(await count()).toBe(before);
    expect(await rows(sql`select revoked_at from app_tokens where id = ${Number(record?.id)}`)).toEqual([{ revoked_at: null }]);
    expect(existing).toMatch(/^app_/);
  });
});
