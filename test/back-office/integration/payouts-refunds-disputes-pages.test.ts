import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../../src/back-office/domain/roles.ts';
import { findMerchantRefunds } from '../../../src/payments/index.ts';
import { signedInMember } from '../../support/dashboard.ts';
import { testEngines } from '../../support/databases.ts';
import { startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';
import { pdfPart, pngPart, tinyPdf, usdWallet } from '../../payments/integration/disputes-fixtures.ts';
import { cardPayoutForm, productionRecords, sandboxRecords, uploadEvidence, type MoneyOutRecords } from './money-out-fixtures.ts';

const engines = await testEngines();
const ROLES: readonly MemberRole[] = ['owner', 'developer', 'support', 'viewer'];
const LIST_PATHS = ['/dashboard/payouts', '/dashboard/refunds', '/dashboard/disputes'];

describe.each(engines)('the Payouts, Refunds and Disputes pages on %s', (engine) => {
  let harness: Harness;
  let adapter: FakeAdapter;
  let temporaryRoot: string;
  let merchant: TestMerchant;
  let other: TestMerchant;
  let sandbox: MoneyOutRecords;
  let live: MoneyOutRecords;

  beforeAll(async () => {
    temporaryRoot = await mkdtemp(join(tmpdir(), 'payrail-dashboard-disputes-'));
    harness = await startHarness(engine, { PAYRAIL_DISPUTE_DOCUMENTS_DIR: join(temporaryRoot, 'documents') });
    adapter = await startFakeAdapter();
    merchant = await harness.createMerchant('Money-out merchant');
    other = await harness.createMerchant('Other merchant');
    sandbox = await sandboxRecords(harness, merchant);
    live = await productionRecords(harness, merchant, adapter);
  });
  afterAll(async () => {
    await harness?.close();
    await adapter?.close();
    if (temporaryRoot) await rm(temporaryRoot, { recursive: true, force: true });
  });

  const detailPaths = (records: MoneyOutRecords) => [
    `/dashboard/payouts/${records.payoutToken}`,
    `/dashboard/refunds/${records.refundToken}`,
    `/dashboard/disputes/${records.disputeToken}`,
    `/dashboard/disputes/${records.disputeToken}/documents/${records.documentId}`,
  ];
  const count = async (table: 'payments' | 'dispute_documents', merchantId = merchant.id) => {
    const where = table === 'payments' ? sql`merchant_id = ${merchantId} and operation_type = 'payout'` : sql`true`;
    const [row] = await queryRows<{ count: string }>(harness.database, sql`select count(*)::text as count from ${sql.identifier(table)} where ${where}`);
    return Number(row?.count);
  };

  it.each(ROLES)('shows the %s role every list and detail page in each mode, with that mode’s records only', async (role) => {
    for (const [environment, own, theOther] of [
      ['sandbox', sandbox, live],
      ['production', live, sandbox],
    ] as const) {
      const member = await signedInMember(harness, { role, merchant, environment });
      for (const path of LIST_PATHS) {
        const page = await member.get(path);
        expect(page.statusCode, `${path} ${page.body}`).toBe(200);
        expect(page.body.match(/<h1>/g)).toHaveLength(1);
        expect(page.body).toContain('<div class="table-wrap"><table>');
      }
      const lists = (await Promise.all(LIST_PATHS.map((path) => member.get(path)))).map((page) => page.body).join('');
      for (const token of [own.payoutToken, own.refundToken, own.disputeToken]) expect(lists).toContain(token);
      for (const token of [theOther.payoutToken, theOther.refundToken, theOther.disputeToken]) expect(lists).not.toContain(token);
      for (const path of detailPaths(own)) expect((await member.get(path)).statusCode, path).toBe(200);
      for (const path of detailPaths(theOther)) expect((await member.get(path)).statusCode, path).toBe(404);
      expect((await member.get('/dashboard/payouts/new')).statusCode).toBe(role === 'owner' ? 200 : 403);
      expect((await member.get('/dashboard/payouts')).body.includes('href="/dashboard/payouts/new"')).toBe(role === 'owner');
    }
  });

  it('shows a payout with its masked card, amount and status history, and a payment token is no payout', async () => {
    const member = await signedInMember(harness, { role: 'viewer', merchant });
    const page = await member.get(`/dashboard/payouts/${sandbox.payoutToken}`);
    expect(page.body).toContain('555555******4444');
    expect(page.body).not.toMatch(/5555 ?5555 ?5555 ?4444/);
    expect(page.body).toContain('20.00 USD');
    expect(page.body).toContain('<ol class="timeline">');
    expect((await member.get(`/dashboard/payouts/${sandbox.paymentToken}`)).statusCode).toBe(404);
  });

  it('shows a refund with its payment linked, and a dispute with its history and evidence', async () => {
    const member = await signedInMember(harness, { role: 'viewer', merchant });
    const refund = await member.get(`/dashboard/refunds/${sandbox.refundToken}`);
    expect(refund.body).toContain(`href="/dashboard/payments/${sandbox.paymentToken}"`);
    expect(refund.body).toContain('5.00 USD');
    const dispute = await member.get(`/dashboard/disputes/${sandbox.disputeToken}`);
    expect(dispute.body).toContain('status-open');
    expect(dispute.body).toContain('receipt.png');
    expect(dispute.body).not.toContain('enctype="multipart/form-data"'); // a viewer may not answer a dispute
    expect((await member.get('/dashboard/disputes?status=won')).body).toContain('No dispute has this status.');
    expect((await member.get('/dashboard/disputes?status=open')).body).toContain(sandbox.disputeToken);
  });

  it('answers 404 to a member of another merchant on every detail address and on the evidence form', async () => {
    const stranger = await signedInMember(harness, { role: 'owner', merchant: other });
    for (const path of detailPaths(sandbox)) expect((await stranger.get(path)).statusCode, path).toBe(404);
    const documentsBefore = await count('dispute_documents');
    expect((await uploadEvidence(harness, stranger, sandbox.disputeToken, [pdfPart()])).statusCode).toBe(404);
    expect(await count('dispute_documents')).toBe(documentsBefore);
    for (const path of LIST_PATHS) expect((await stranger.get(path)).body).not.toContain(sandbox.paymentToken);
  });

  it('sends a card payout from the owner’s form through the API’s flow: reserved from the balance and shown', async () => {
    const funded = await harness.createMerchant('Form payouts');
    await sandboxRecords(harness, funded);
    const owner = await signedInMember(harness, { role: 'owner', merchant: funded });
    const before = await usdWallet(harness.database, funded.id);
    const form = await owner.get('/dashboard/payouts/new');
    expect(form.body).toContain('Available to pay out');
    expect(form.body).toContain(`${(before.available / 100).toFixed(2)} USD`);
    const sent = await owner.post('/dashboard/payouts/new', cardPayoutForm(), '/dashboard/payouts/new');
    expect(sent.statusCode, sent.body).toBe(303);
    const location = String(sent.headers.location);
    expect(location).toMatch(/^\/dashboard\/payouts\/[0-9a-f]{32}\?sent=1$/);
    expect((await usdWallet(harness.database, funded.id)).available).toBe(before.available - 1250);
    const page = await owner.get(location);
    expect(page.body).toContain('The payout was sent');
    expect(page.body).toContain('12.50 USD');
    expect(page.body).toContain('dashboard-payout-1');
  });

  it('sends one payout for a form posted twice (a double click, a reload), and shows the first one', async () => {
    const funded = await harness.createMerchant('Twice-posted payouts');
    await sandboxRecords(harness, funded);
    const owner = await signedInMember(harness, { role: 'owner', merchant: funded });
    const before = await usdWallet(harness.database, funded.id);
    const form = await owner.get('/dashboard/payouts/new');
    const formKey = /name="formKey" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
    expect(formKey).not.toBe('');
    const [first, second] = await Promise.all([
      owner.post('/dashboard/payouts/new', cardPayoutForm({ formKey }), '/dashboard/payouts/new'),
      owner.post('/dashboard/payouts/new', cardPayoutForm({ formKey }), '/dashboard/payouts/new'),
    ]);
    const third = await owner.post('/dashboard/payouts/new', cardPayoutForm({ formKey }), '/dashboard/payouts/new');
    expect([first.statusCode, second.statusCode, third.statusCode]).toEqual([303, 303, 303]);
    // the one still running when the other arrived leads to the list; every other answer names the one payout
    const tokens = new Set([first, second, third].map((answer) => /\/dashboard\/payouts\/([0-9a-f]{32})/.exec(String(answer.headers.location))?.[1]));
    tokens.delete(undefined);
    expect(tokens.size).toBe(1);
    expect(String(third.headers.location)).toMatch(/^\/dashboard\/payouts\/[0-9a-f]{32}$/);
    expect((await usdWallet(harness.database, funded.id)).available).toBe(before.available - 1250);
  });

  it('sends SBP and bank account payouts, and reports what each kind needs as the API does', async () => {
    const owner = await signedInMember(harness, { role: 'owner', merchant });
    const sbp = await owner.post('/dashboard/payouts/new', cardPayoutForm({ kind: 'sbp', pan: '' }), '/dashboard/payouts/new');
    expect(sbp.statusCode).toBe(422);
    expect(sbp.body).toContain('href="#payout-bankName">Bank name</a>: is required when bank_account.requisite_type is sbp');
    expect(sbp.body).toContain('href="#payout-phone">Phone</a>: is required when bank_account.requisite_type is sbp');
    expect(sbp.body).toContain('value="payee@example.com"'); // what was typed stays
    const sbpSent = await owner.post(
      '/dashboard/payouts/new',
      cardPayoutForm({ kind: 'sbp', bankName: 'Sandbox Bank', phone: '+79990000000', amount: '1' }),
      '/dashboard/payouts/new',
    );
    expect(sbpSent.statusCode, sbpSent.body).toBe(303);
    const account = await owner.post(
      '/dashboard/payouts/new',
      cardPayoutForm({ kind: 'account', bankName: 'Sandbox Bank', accountNumber: '40817810000000000001', amount: '1.5' }),
      '/dashboard/payouts/new',
    );
    expect(account.statusCode, account.body).toBe(303);
    const shown = await owner.get(String(account.headers.location));
    expect(shown.body).toContain('Bank account: ••••0001 · Sandbox Bank');
    expect(shown.body).not.toContain('40817810000000000001');
  });

  it('keeps the fields but never the card number when a payout is refused, and stores nothing', async () => {
    const owner = await signedInMember(harness, { role: 'owner', merchant });
    const payoutsBefore = await count('payments');
    const cases = [
      [{ pan: '4111 1111 1111 1112' }, 'is not a valid card number (Luhn check failed)'],
      [{ amount: '12.345' }, 'USD has at most 2 decimals'],
      [{ amount: '900000' }, 'the available USD balance does not cover the payout'],
      [{ currency: 'XXQ' }, 'currency'],
      [{ email: 'not-an-address', callbackUrl: 'ftp://merchant.example' }, 'must be a valid e-mail address'],
    ] as const;
    for (const [overrides, message] of cases) {
      const refused = await owner.post('/dashboard/payouts/new', cardPayoutForm({ pan: '4242 4242 4242 4242', ...overrides }), '/dashboard/payouts/new');
      expect(refused.statusCode, JSON.stringify(overrides)).toBe(422);
      expect(refused.body).toContain(message);
      expect(refused.body).toContain('id="payout-pan" name="pan" value=""');
      expect(refused.body).not.toMatch(/4111 ?1111 ?1111 ?1112|4242 ?4242 ?4242 ?4242/);
      expect(refused.body).toContain('value="dashboard-payout-1"');
      expect(refused.body).toContain('name="_csrf" value="'); // the form can be sent again as it stands
      expect(refused.body).not.toContain('name="_csrf" value=""');
    }
    expect(await count('payments')).toBe(payoutsBefore);
  });

  it('refuses payouts of a disabled merchant, and live payouts of one waiting for review, storing nothing', async () => {
    const waiting = await harness.createMerchant('Waiting for review');
    await sandboxRecords(harness, waiting);
    await harness.database.db.execute(sql`update merchants set review_status = 'pending_review' where id = ${waiting.id}`);
    const liveOwner = await signedInMember(harness, { role: 'owner', merchant: waiting, environment: 'production' });
    const refusedLive = await liveOwner.post('/dashboard/payouts/new', cardPayoutForm(), '/dashboard/payouts/new');
    expect(refusedLive.statusCode).toBe(403);
    expect(refusedLive.body).toContain('live payouts start once an operator has approved your account');
    await harness.database.db.execute(sql`update merchants set status = 'disabled' where id = ${waiting.id}`);
    const testOwner = await signedInMember(harness, { role: 'owner', merchant: waiting, environment: 'sandbox' });
    const refusedDisabled = await testOwner.post('/dashboard/payouts/new', cardPayoutForm(), '/dashboard/payouts/new');
    expect(refusedDisabled.statusCode).toBe(403);
    expect(refusedDisabled.body).toContain('this merchant is disabled');
    expect(await count('payments', waiting.id)).toBe(1); // the payout sandboxRecords made through the API
  });

  it('filters payouts as the API lists them, and shows a refused filter in the page', async () => {
    const member = await signedInMember(harness, { role: 'viewer', merchant });
    expect((await member.get('/dashboard/payouts?orderNumber=payout-sandbox')).body).toContain(sandbox.payoutToken);
    expect((await member.get('/dashboard/payouts?orderNumber=no-such-order')).body).toContain('No payout matches these filters.');
    const refused = await member.get('/dashboard/payouts?dateFrom=2026-02-30');
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('dateFrom must be a real date');
  });

  it.each(['developer', 'support', 'viewer'] as const)('refuses a payout forged by the %s role with a valid token: 403, nothing sent', async (role) => {
    const member = await signedInMember(harness, { role, merchant });
    const before = await count('payments');
    const forged = await member.post('/dashboard/payouts/new', cardPayoutForm(), '/dashboard/payouts');
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('Your role does not allow this.');
    expect(await count('payments')).toBe(before);
  });

  it('adds evidence for the support role by the API’s file rules, and serves it back as an attachment', async () => {
    const support = await signedInMember(harness, { role: 'support', merchant });
    const added = await uploadEvidence(harness, support, sandbox.disputeToken, [pdfPart('delivery-note.pdf')]);
    expect(added.statusCode, added.body).toBe(303);
    expect(added.headers.location).toBe(`/dashboard/disputes/${sandbox.disputeToken}?added=1`);
    const page = await support.get(String(added.headers.location));
    expect(page.body).toContain('1 document added.');
    const id = new RegExp(`/dashboard/disputes/${sandbox.disputeToken}/documents/(\\d+)" download>delivery-note.pdf`).exec(page.body)?.[1];
    const download = await support.get(`/dashboard/disputes/${sandbox.disputeToken}/documents/${id}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(String(download.headers['content-disposition'])).toContain('attachment; filename="delivery-note.pdf"');
    expect(download.rawPayload.equals(tinyPdf())).toBe(true);
  });

  it('refuses evidence the API would refuse, in the page, storing nothing', async () => {
    const owner = await signedInMember(harness, { role: 'owner', merchant });
    const before = await count('dispute_documents');
    const text = { name: 'document[]', filename: 'notes.pdf', contentType: 'application/pdf', data: Buffer.from('just text, not a PDF') };
    const refused = await uploadEvidence(harness, owner, sandbox.disputeToken, [text]);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('only PDF, PNG and JPEG are accepted');
    expect(refused.body).toContain('enctype="multipart/form-data"'); // the form is there to try again
    const empty = await uploadEvidence(harness, owner, sandbox.disputeToken, []);
    expect(empty.statusCode).toBe(422);
    expect(await count('dispute_documents')).toBe(before);
  });

  it.each(['developer', 'viewer'] as const)('refuses evidence forged by the %s role with a valid token: 403, nothing stored', async (role) => {
    const member = await signedInMember(harness, { role, merchant });
    const before = await count('dispute_documents');
    const forged = await uploadEvidence(harness, member, sandbox.disputeToken, [pngPart('forged.png')]);
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('Your role does not allow this.'); // the role's refusal, not the token's
    expect(await count('dispute_documents')).toBe(before);
  });

  it('refuses an evidence upload without the CSRF token in its query', async () => {
    const owner = await signedInMember(harness, { role: 'owner', merchant });
    await owner.get(`/dashboard/disputes/${sandbox.disputeToken}`);
    const response = await harness.app.inject({
      method: 'POST',
      url: `/dashboard/disputes/${sandbox.disputeToken}/evidence`,
      headers: { cookie: owner.cookieHeader(), 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(response.statusCode).toBe(403);
  });

  it('pages refunds newest first by a cursor, and shows a bad cursor as a problem in the page', async () => {
    const scope = { merchantId: merchant.id, environment: 'sandbox' as const };
    const paged = await harness.createMerchant('Paged refunds');
    const records = [await sandboxRecords(harness, paged), await sandboxRecords(harness, paged)];
    const first = await findMerchantRefunds(harness.database.db, { ...scope, merchantId: paged.id }, { cursor: null, perPage: 1 });
    expect(first.rows.map((row) => row.token)).toEqual([records[1]!.refundToken]);
    const second = await findMerchantRefunds(harness.database.db, { ...scope, merchantId: paged.id }, { cursor: first.nextCursor, perPage: 1 });
    expect(second.rows.map((row) => row.token)).toEqual([records[0]!.refundToken]);
    expect(second.nextCursor).toBeNull();
    const member = await signedInMember(harness, { role: 'viewer', merchant });
    const bad = await member.get('/dashboard/refunds?cursor=not-a-cursor');
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('cursor is not a nextCursor this list gave');
  });
});
