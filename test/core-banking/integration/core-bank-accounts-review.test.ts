import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankAccounts } from '../../../src/core-banking/store/schema.ts';
import { createTestProfile, openTestSession, type TestProfile } from '../../support/core-banking.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { createdId, insertBankAccounts, listBankAccounts, reviewBankAccount, VALID_IBAN } from './core-bank-accounts-fixtures.ts';

const engines = await testEngines();

// Operators review the records clients add (admin API): every allowed move, and the refusal of the others.
describe.each(engines)('operator review of bank accounts on %s', (engine) => {
  let harness: Harness;
  let grace: TestProfile;
  let graceSession: string;

  beforeAll(async () => {
    harness = await startHarness(engine);
    grace = await createTestProfile(harness.database.db, { name: 'Grace', surname: 'Hopper' });
    graceSession = await openTestSession(harness.database.db, grace.id);
  });
  afterAll(async () => harness?.close());

  const row = async (id: number) => (await harness.database.db.select().from(bankAccounts).where(eq(bankAccounts.id, id)))[0];
  const review = async (id: number, action: string, body?: Record<string, unknown>) => reviewBankAccount(harness, id, action, body);

  it('approves, verifies and closes a record; the owner sees each status', async () => {
    const id = await createdId(harness, graceSession, { value: VALID_IBAN, currency: 'EUR', provider: 'iban' });
    const queue = await harness.app.inject({
      method: 'GET',
      url: `/api/admin/v1/bank-accounts?status=pending&profile_id=${grace.id}`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
    });
    expect(queue.statusCode).toBe(200);
    expect(queue.json().bank_accounts).toContainEqual(expect.objectContaining({ id, profile_id: grace.id, status: 'pending' }));

    const approved = await review(id, 'approve', { outer_id: 'partner-77' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().bank_account).toMatchObject({ id, status: 'approved', approved: true, verified: false, outer_id: 'partner-77' });
    expect((await review(id, 'verify')).json().bank_account).toMatchObject({ status: 'approved', verified: true });
    expect((await listBankAccounts(harness, graceSession, { id })).json().object[0]).toMatchObject({
      status: 'approved',
      approved: true,
      verified: true,
      outer_id: 'partner-77',
    });
    expect((await review(id, 'close')).json().bank_account).toMatchObject({ status: 'closed', approved: false });
  });

  it('sends a record to its provider, then declines it', async () => {
    const id = await createdId(harness, graceSession, { value: 'Partner account', currency: 'EUR', provider: 'sepa_partner' });
    expect((await review(id, 'request')).json().bank_account.status).toBe('pending_request');
    expect((await review(id, 'decline')).json().bank_account.status).toBe('declined');
  });

  it.each([
    ['approve', 'approved'],
    ['decline', 'approved'],
    ['verify', 'pending'],
    ['request', 'declined'],
    ['approve', 'closed'],
    ['close', 'closed'],
  ])('answers 409 to %s of a %s record and changes nothing', async (action, status) => {
    const [inserted] = await insertBankAccounts(harness, grace.id, 1, { status: status as 'pending' });
    const response = await review(inserted!.id, action);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ success: false, errors: [{ code: 'invalid_state' }] });
    expect((await row(inserted!.id))?.status).toBe(status);
  });

  it('answers 404 for an unknown record, 422 for an unknown action or outer_id off approve, 401 without the admin key', async () => {
    expect((await review(9_000_000_000, 'approve')).statusCode).toBe(404);
    const [inserted] = await insertBankAccounts(harness, grace.id, 1);
    expect((await review(inserted!.id, 'delete')).statusCode).toBe(422);
    expect((await review(inserted!.id, 'decline', { outer_id: 'x' })).json().errors[0]).toMatchObject({ field: 'outer_id' });
    const anonymous = await harness.app.inject({ method: 'POST', url: `/api/admin/v1/bank-accounts/${inserted!.id}/approve` });
    expect(anonymous.statusCode).toBe(401);
    const withSession = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/bank-accounts/${inserted!.id}/approve`,
      headers: { 'session-token': graceSession },
    });
    expect(withSession.statusCode).toBe(401);
    expect((await row(inserted!.id))?.status).toBe('pending');
  });
});
