import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBookViolations as findLedgerViolations } from '../../../src/payments/flows/ledger-check.ts';
import { disputes, outbox } from '../../../src/payments/store/schema.ts';
import { ledgerTransactions } from '../../../src/ledger/store/schema.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { approvedPayment, disputeForm, pdfPart, pngPart, postDispute, tinyPdf, usdWallet } from './disputes-fixtures.ts';

const engines = await testEngines();

describe.each(engines)('operators resolve disputes on %s', (engine) => {
  let harness: Harness;
  let temporaryRoot: string;
  let merchant: TestMerchant;
  let other: TestMerchant;

  beforeAll(async () => {
    temporaryRoot = await mkdtemp(join(tmpdir(), 'payrail-dispute-resolution-'));
    harness = await startHarness(engine, { PAYRAIL_DISPUTE_DOCUMENTS_DIR: join(temporaryRoot, 'documents') });
    merchant = await harness.createMerchant('Disputing merchant');
    other = await harness.createMerchant('Other merchant');
  });
  afterAll(async () => {
    await harness?.close();
    if (temporaryRoot) await rm(temporaryRoot, { recursive: true, force: true });
  });

  const admin = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>): Promise<LightMyRequestResponse> =>
    harness.app.inject({
      method,
      url: `/api/admin/v1${url}`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
      ...(payload === undefined ? {} : { payload }),
    });

  async function openDispute(amount: number, key = merchant.sandboxKey, paymentAmount = 1000) {
    const payment = await approvedPayment(harness, key, paymentAmount);
    const response = await postDispute(harness, key, disputeForm(payment.token, amount, [pngPart()]));
    expect(response.statusCode).toBe(200);
    return { payment, token: response.json().dispute.token as string };
  }

  const notificationsOf = async (token: string) => {
    const [row] = await harness.database.db.select({ id: disputes.id }).from(disputes).where(eq(disputes.token, token));
    return harness.database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.disputeId, row!.id), eq(outbox.topic, 'notification')));
  };

  it('reviews, then resolves as won: the hold goes back to available, each step notifies the merchant', async () => {
    const before = await usdWallet(harness.database, merchant.id);
    const { token } = await openDispute(300);
    expect(await usdWallet(harness.database, merchant.id)).toEqual({ currency: 'USD', available: before.available + 1000 - 300, hold: before.hold + 300 });

    const reviewed = await admin('POST', `/disputes/${token}/review`);
    expect(reviewed.statusCode).toBe(200);
    expect(reviewed.json().dispute).toMatchObject({ token, status: 'under_review', resolved_at: null, merchant_id: merchant.id, environment: 'sandbox' });
    const reviewedAgain = await admin('POST', `/disputes/${token}/review`);
    expect(reviewedAgain.statusCode).toBe(409);
    expect(reviewedAgain.json().errors[0].code).toBe('invalid_state');

    const won = await admin('POST', `/disputes/${token}/resolve`, { outcome: 'won', note: 'Carrier confirmed delivery' });
    expect(won.statusCode).toBe(200);
    expect(won.json().dispute).toMatchObject({ status: 'won', resolution_note: 'Carrier confirmed delivery' });
    expect(Number.isNaN(Date.parse(won.json().dispute.resolved_at))).toBe(false);
    expect(await usdWallet(harness.database, merchant.id)).toEqual({ currency: 'USD', available: before.available + 1000, hold: before.hold });

    const seen = await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: `/api/v1/disputes/${token}` });
    expect(seen.json()).toMatchObject({ status: 'won', dispute: { status: 'won', resolution_note: 'Carrier confirmed delivery' } });
    expect(await notificationsOf(token)).toHaveLength(3); // opened, under review, won
    for (const outcome of ['won', 'lost']) {
      const again = await admin('POST', `/disputes/${token}/resolve`, { outcome });
      expect(again.statusCode).toBe(409);
      expect(again.json().errors[0].message).toContain('already resolved');
    }
    expect(await findLedgerViolations(harness.database.db)).toEqual([]);
  });

  it('resolves an open dispute as lost: the merchant is debited the amount and the ledger stays sound', async () => {
    const before = await usdWallet(harness.database, merchant.id);
    const { token, payment } = await openDispute(250);
    const lost = await admin('POST', `/disputes/${token}/resolve`, { outcome: 'lost' });
    expect(lost.statusCode).toBe(200);
    expect(lost.json().dispute).toMatchObject({ status: 'lost', resolution_note: null });
    const after = await usdWallet(harness.database, merchant.id);
    expect(after).toEqual({ currency: 'USD', available: before.available + 1000 - 250, hold: before.hold });
    const kinds = await harness.database.db
      .select({ kind: ledgerTransactions.kind })
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.paymentId, payment.id))
      .orderBy(ledgerTransactions.id);
    expect(kinds.map((row) => row.kind)).toEqual(['payment_captured', 'dispute_held', 'dispute_lost']);
    expect(await findLedgerViolations(harness.database.db)).toEqual([]);
    expect(await notificationsOf(token)).toHaveLength(2);
  });

  it('counts a lost dispute against the payment and frees a won one', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey, 1000);
    const first = (await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 600))).json().dispute.token;
    await admin('POST', `/disputes/${first}/resolve`, { outcome: 'lost' });
    expect((await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 401))).statusCode).toBe(422);
    const second = (await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 400))).json().dispute.token;
    await admin('POST', `/disputes/${second}/resolve`, { outcome: 'won' });
    expect((await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 400))).statusCode).toBe(200);
    expect(await findLedgerViolations(harness.database.db)).toEqual([]);
  });

  it('lists disputes for operators by merchant and status, and gets one with its documents', async () => {
    const { token } = await openDispute(10, other.sandboxKey);
    const byMerchant = await admin('GET', `/disputes?merchantId=${other.id}`);
    expect(byMerchant.statusCode).toBe(200);
    expect(byMerchant.json().disputes.map((dispute: { token: string }) => dispute.token)).toEqual([token]);
    const openOnes = await admin('GET', `/disputes?merchantId=${other.id}&status=open`);
    expect(openOnes.json().disputes).toHaveLength(1);
    expect((await admin('GET', `/disputes?merchantId=${other.id}&status=won`)).json().disputes).toEqual([]);
    const everyone = await admin('GET', '/disputes?perPage=100');
    const merchants = new Set(everyone.json().disputes.map((dispute: { merchant_id: number }) => dispute.merchant_id));
    expect(merchants).toEqual(new Set([merchant.id, other.id]));

    const got = await admin('GET', `/disputes/${token}`);
    expect(got.json().dispute).toMatchObject({ token, merchant_id: other.id, documents: [{ media_type: 'image/png', file_name: 'receipt.png' }] });
    expect(got.json().dispute.documents[0].sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lets operators download the evidence, with the admin key only', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const pdf = tinyPdf('Signed delivery note');
    const opened = (await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 10, [pdfPart('note.pdf', pdf)]))).json();
    const url = `/disputes/${opened.dispute.token}/documents/${opened.dispute.documents[0].id}`;
    const download = await admin('GET', url);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload).toEqual(pdf);
    expect(download.headers['content-disposition']).toContain('attachment');
    const withMerchantKey = await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: `/api/admin/v1${url}` });
    expect(withMerchantKey.statusCode).toBe(401);
  });

  it.each([
    ['an unknown dispute', 'POST', `/disputes/${'a'.repeat(32)}/review`, undefined, 404],
    ['a malformed token', 'POST', '/disputes/nope/review', undefined, 404],
    ['an outcome that is not won or lost', 'POST', `/disputes/${'a'.repeat(32)}/resolve`, { outcome: 'draw' }, 422],
    ['an unknown field', 'POST', `/disputes/${'a'.repeat(32)}/resolve`, { outcome: 'won', refund: true }, 422],
    ['a status filter that does not exist', 'GET', '/disputes?status=closed', undefined, 422],
  ] as const)('answers %s with %s', async (_case, method, url, payload, status) => {
    const response = await admin(method, url, payload);
    expect(response.statusCode).toBe(status);
    expect(response.json().success).toBe(false);
  });

  it('refuses every admin dispute route without the admin key', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/v1/disputes'],
      ['POST', `/api/admin/v1/disputes/${'a'.repeat(32)}/review`],
      ['POST', `/api/admin/v1/disputes/${'a'.repeat(32)}/resolve`],
    ] as const) {
      const response = await harness.app.inject({ method, url });
      expect(response.statusCode).toBe(401);
    }
  });

  it('lets only one of two concurrent resolutions through', async () => {
    const before = await usdWallet(harness.database, merchant.id);
    const { token } = await openDispute(100);
    const answers = await Promise.all([
      admin('POST', `/disputes/${token}/resolve`, { outcome: 'won' }),
      admin('POST', `/disputes/${token}/resolve`, { outcome: 'lost' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.statusCode === 200)!.json().dispute.status;
    const after = await usdWallet(harness.database, merchant.id);
    expect(after.hold).toBe(before.hold);
    expect(after.available).toBe(before.available + 1000 - (winner === 'lost' ? 100 : 0));
    expect(await findLedgerViolations(harness.database.db)).toEqual([]);
  });

  it('never lets concurrent disputes of one payment exceed it', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey, 1000);
    const answers = await Promise.all(Array.from({ length: 6 }, () => postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 300))));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(3);
    expect(answers.filter((answer) => answer.statusCode === 422)).toHaveLength(3);
    const rows = await harness.database.db.select().from(disputes).where(eq(disputes.paymentId, payment.id));
    expect(rows.reduce((sum, row) => sum + row.amountMinor, 0)).toBe(900);
    expect(await findLedgerViolations(harness.database.db)).toEqual([]);
  });
});
