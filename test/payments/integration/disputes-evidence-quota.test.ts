import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disputes } from '../../../src/payments/store/schema.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { approvedPayment, disputeForm, pdfPart, postDispute, storedFiles, tinyPdf, usdWallet } from './disputes-fixtures.ts';

const engines = await testEngines();

const QUOTA_BYTES = 4000; // PAYRAIL_DISPUTE_EVIDENCE_SANDBOX_QUOTA_BYTES, small for the test
// A real PDF padded with trailing spaces to an exact size.
const pdfOf = (sizeBytes: number) => Buffer.concat([tinyPdf(), Buffer.alloc(sizeBytes - tinyPdf().length, 0x20)]);

// Each merchant may keep a quota of evidence per environment, all disputes together; documents past it are refused
// with 413 and what is left, before anything is stored.
describe.each(engines)('dispute evidence quota on %s', (engine) => {
  let harness: Harness;
  let temporaryRoot: string;
  let documentsDir: string;

  beforeAll(async () => {
    temporaryRoot = await mkdtemp(join(tmpdir(), 'payrail-evidence-quota-'));
    documentsDir = join(temporaryRoot, 'dispute-documents');
    harness = await startHarness(engine, { PAYRAIL_DISPUTE_DOCUMENTS_DIR: documentsDir, PAYRAIL_DISPUTE_EVIDENCE_SANDBOX_QUOTA_BYTES: String(QUOTA_BYTES) });
  });
  afterAll(async () => {
    await harness?.close();
    if (temporaryRoot) await rm(temporaryRoot, { recursive: true, force: true });
  });

  const open = (merchant: TestMerchant, token: string, sizes: number[], headers: Record<string, string> = {}) =>
    postDispute(
      harness,
      merchant.sandboxKey,
      disputeForm(
        token,
        100,
        sizes.map((size, index) => pdfPart(`evidence-${index}.pdf`, pdfOf(size))),
      ),
      headers,
    );
  const disputesOf = async (paymentId: number) => harness.database.db.select({ id: disputes.id }).from(disputes).where(eq(disputes.paymentId, paymentId));

  it('refuses documents past the quota with 413, the bytes left and nothing stored; a form that fits still opens', async () => {
    const merchant = await harness.createMerchant('Quota merchant');
    const first = await approvedPayment(harness, merchant.sandboxKey, 1000);
    expect((await open(merchant, first.token, [1500])).statusCode).toBe(200);

    const second = await approvedPayment(harness, merchant.sandboxKey, 1000);
    const walletBefore = await usdWallet(harness.database, merchant.id);
    const filesBefore = await storedFiles(documentsDir);
    const refused = await open(merchant, second.token, [1500, 1500]);
    expect(refused.statusCode, refused.body).toBe(413);
    const left = QUOTA_BYTES - 1500;
    expect(refused.json()).toEqual({
      success: false,
      result: 1,
      status: 413,
      errors: [
        { code: 'evidence_quota_exceeded', field: 'document[1]', quotaLeftBytes: left, message: expect.stringContaining(`${left} of ${QUOTA_BYTES} bytes`) },
      ],
    });
    expect(await disputesOf(second.id)).toEqual([]);
    expect(await usdWallet(harness.database, merchant.id)).toEqual(walletBefore);
    expect(await storedFiles(documentsDir)).toEqual(filesBefore); // no document kept, no temporary file left

    expect((await open(merchant, second.token, [1500])).statusCode).toBe(200);
    const full = await open(merchant, (await approvedPayment(harness, merchant.sandboxKey, 1000)).token, [1001]);
    expect(full.statusCode).toBe(413);
    expect(full.json().errors[0]).toMatchObject({ field: 'document[0]', quotaLeftBytes: QUOTA_BYTES - 3000 });
    expect((await open(merchant, (await approvedPayment(harness, merchant.sandboxKey, 1000)).token, [])).statusCode).toBe(200); // no documents
  });

  it("keeps each merchant's quota its own", async () => {
    const filling = await harness.createMerchant('Filling merchant');
    const neighbour = await harness.createMerchant('Neighbour merchant');
    expect((await open(filling, (await approvedPayment(harness, filling.sandboxKey)).token, [QUOTA_BYTES - 500])).statusCode).toBe(200);
    expect((await open(filling, (await approvedPayment(harness, filling.sandboxKey)).token, [600])).statusCode).toBe(413);
    expect((await open(neighbour, (await approvedPayment(harness, neighbour.sandboxKey)).token, [QUOTA_BYTES - 500])).statusCode).toBe(200);
  });

  it('lets only one of two concurrent uploads take the same free space', async () => {
    const merchant = await harness.createMerchant('Racing merchant');
    const payments = [await approvedPayment(harness, merchant.sandboxKey), await approvedPayment(harness, merchant.sandboxKey)];
    const answers = await Promise.all(payments.map((payment) => open(merchant, payment.token, [2500])));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 413]);
    const refusal = answers.find((answer) => answer.statusCode === 413)!.json();
    expect(refusal.errors[0]).toMatchObject({ code: 'evidence_quota_exceeded', quotaLeftBytes: QUOTA_BYTES - 2500 });
  });

  it('replays an earlier answer for its Idempotency-Key even when the quota is now used up', async () => {
    const merchant = await harness.createMerchant('Retrying merchant');
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const headers = { 'idempotency-key': `quota-${payment.token}` };
    const first = await open(merchant, payment.token, [QUOTA_BYTES - 100], headers);
    expect(first.statusCode, first.body).toBe(200);
    const retry = await postDispute(
      harness,
      merchant.sandboxKey,
      disputeForm(payment.token, 100, [pdfPart('evidence-0.pdf', pdfOf(QUOTA_BYTES - 100))]),
      headers,
    );
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().dispute.token).toBe(first.json().dispute.token);
    expect(await disputesOf(payment.id)).toHaveLength(1);
  });
});
