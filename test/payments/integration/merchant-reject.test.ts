import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliAgainstRunningServer } from '../../support/cli-server.ts';
import { CliError } from '../../../src/cli/cli-error.ts';
import { runMerchantCommand, type MerchantCommandOptions } from '../../../src/cli/merchant-commands.ts';
import { createSignedUpMerchant, issueProductionKey } from '../../../src/payments/index.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';

const engines = await testEngines();

// POST /api/admin/v1/merchants/{id}/reject and `payrail merchant reject`: a dashboard sign-up turned down with the
// reason its members see; only one waiting for review, and it never gets a production key.
describe.each(engines)('rejecting a sign-up through the admin API on %s', (engine) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness.close());

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    harness.app.inject({ method, url: `/api/admin/v1${url}`, headers: { authorization: `Bearer ${harness.adminKey}` }, ...(payload ? { payload } : {}) });
  const signUp = async (name: string) => (await createSignedUpMerchant(harness.database.db, harness.app.payrail.masterKey, name)).merchant.id;

  it('rejects a merchant waiting for review with its reason, trimmed, and issues it no production key', async () => {
    const id = await signUp(`Rejected by API ${engine}`);
    const rejected = await admin('POST', `/merchants/${id}/reject`, { reason: '  No business registration found.\nWrite to us.  ' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().merchant).toMatchObject({ id, review_status: 'rejected', review_note: 'No business registration found.\nWrite to us.' });
    expect((await admin('GET', `/merchants/${id}`)).json().merchant.review_note).toBe('No business registration found.\nWrite to us.');
    await expect(issueProductionKey(harness.database.db, harness.app.payrail.masterKey, id)).rejects.toMatchObject({ statusCode: 409 });
    const again = await admin('POST', `/merchants/${id}/reject`, { reason: 'twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0].code).toBe('invalid_state');
    const approved = await admin('POST', `/merchants/${id}/approve`);
    expect(approved.json().merchant).toMatchObject({ review_status: 'approved', review_note: null });
  });

  it.each([
    ['no reason', {}, 422],
    ['an empty reason', { reason: '' }, 422],
    ['a reason of spaces only', { reason: '   ' }, 422],
    ['a reason of 501 characters', { reason: 'x'.repeat(501) }, 422],
    ['a control character', { reason: 'bad\u0007bell' }, 422],
    ['an unknown field', { reason: 'fine', note: 'extra' }, 422],
  ])('refuses %s and changes nothing', async (_case, body, status) => {
    const id = await signUp(`Refused reason ${engine}`);
    const response = await admin('POST', `/merchants/${id}/reject`, body);
    expect(response.statusCode, response.body).toBe(status);
    expect((await admin('GET', `/merchants/${id}`)).json().merchant).toMatchObject({ review_status: 'pending_review', review_note: null });
  });

  it('answers 404 for an unknown merchant and 409 for an approved one', async () => {
    expect((await admin('POST', '/merchants/999999/reject', { reason: 'gone' })).statusCode).toBe(404);
    const approved = await harness.createMerchant(`Approved ${engine}`);
    expect((await admin('POST', `/merchants/${approved.id}/reject`, { reason: 'too late' })).statusCode).toBe(409);
  });
});

describe('payrail merchant reject against a running server', () => {
  const running = cliAgainstRunningServer();

  const run = async (options: Partial<MerchantCommandOptions>) => {
    const lines: string[] = [];
    await runMerchantCommand(running.client(), 'reject', { json: false, ...options }, (line) => lines.push(line));
    return lines;
  };

  it('rejects with the reason, says so, and refuses a missing reason before calling the server', async () => {
    const { payrail } = running.server().running.app;
    const { merchant } = await createSignedUpMerchant(payrail.database.db, payrail.masterKey, 'CLI sign-up');
    await expect(run({ id: String(merchant.id) })).rejects.toBeInstanceOf(CliError);
    await expect(run({ id: String(merchant.id), reason: '  ' })).rejects.toBeInstanceOf(CliError);
    const lines = await run({ id: String(merchant.id), reason: 'Unverified address' });
    expect(lines[0]).toMatch(new RegExp(`^#${merchant.id}\\tactive \\(rejected: Unverified address\\)\\tCLI sign-up`));
    await expect(run({ id: String(merchant.id), reason: 'again' })).rejects.toThrow(/waiting for review/);
  });
});
