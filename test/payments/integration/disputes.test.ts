import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disputeDocuments, disputes, outbox } from '../../../src/payments/store/schema.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import {
  approvedPayment,
  disputeForm,
  initPayment,
  pdfPart,
  pngPart,
  postDispute,
  setPayCommission,
  storedFiles,
  tinyPdf,
  tinyPng,
  usdWallet,
} from './disputes-fixtures.ts';

const engines = await testEngines();
const MEBIBYTE = 1024 * 1024;

describe.each(engines)('merchant disputes API on %s', (engine) => {
  let harness: Harness;
  let documentsDir: string;
  let temporaryRoot: string;
  let merchant: TestMerchant;
  let other: TestMerchant;

  beforeAll(async () => {
    temporaryRoot = await mkdtemp(join(tmpdir(), 'payrail-disputes-'));
    documentsDir = join(temporaryRoot, 'dispute-documents'); // created by the first upload
    harness = await startHarness(engine, { PAYRAIL_DISPUTE_DOCUMENTS_DIR: documentsDir });
    merchant = await harness.createMerchant('Disputing merchant');
    other = await harness.createMerchant('Other merchant');
  });
  afterAll(async () => {
    await harness?.close();
    if (temporaryRoot) await rm(temporaryRoot, { recursive: true, force: true });
  });

  it('opens a dispute with a real PNG and a real PDF, holds the amount and stores the files 0600 in a 0700 folder', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey, 1000);
    const before = await usdWallet(harness.database, merchant.id);
    const png = tinyPng();
    const pdf = tinyPdf();
    const response = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 400, [pngPart('photo.png', png), pdfPart('invoice.pdf', pdf)]));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      success: true,
      result: 0,
      status: 'open',
      dispute: {
        payment_token: payment.token,
        amount: 400,
        currency: 'USD',
        status: 'open',
        description: 'The customer says the parcel never arrived',
        documents: [
          { file_name: 'photo.png', media_type: 'image/png', size: png.length },
          { file_name: 'invoice.pdf', media_type: 'application/pdf', size: pdf.length },
        ],
      },
    });
    expect(body.dispute.token).toMatch(/^[0-9a-f]{32}$/);
    expect(Number.isNaN(Date.parse(body.dispute.created_at))).toBe(false);

    const folder = await stat(documentsDir);
    expect(folder.mode & 0o777).toBe(0o700);
    const files = await storedFiles(documentsDir);
    expect(files).toHaveLength(2);
    for (const file of files) {
      expect(file.mode).toBe(0o600);
      expect(file.name).toMatch(/^[0-9a-f]{32}$/); // a random name, nothing of the merchant's
    }
    const rows = await harness.database.db.select().from(disputeDocuments).orderBy(disputeDocuments.id);
    const stored = rows.slice(-2);
    expect(stored.map((row) => row.sha256)).toEqual([png, pdf].map((bytes) => createHash('sha256').update(bytes).digest('hex')));
    expect(await readFile(join(documentsDir, stored[0]!.storedName))).toEqual(png);

    const after = await usdWallet(harness.database, merchant.id);
    expect(after).toEqual({ currency: 'USD', available: before.available - 400, hold: before.hold + 400 });
    const [dispute] = await harness.database.db.select().from(disputes).where(eq(disputes.token, body.dispute.token));
    const notifications = await harness.database.db.select().from(outbox).where(eq(outbox.disputeId, dispute!.id));
    expect(notifications).toMatchObject([{ topic: 'notification', paymentId: payment.id }]);
    expect(notifications[0]!.eventId).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it('streams a document back to its own merchant only, as an attachment that is never rendered', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const pdf = tinyPdf('Proof of delivery');
    const opened = (await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 100, [pdfPart('proof of délivery (1).pdf', pdf)]))).json();
    const document = opened.dispute.documents[0];
    const url = `/api/v1/disputes/${opened.dispute.token}/documents/${document.id}`;

    const download = await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload).toEqual(pdf);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-length']).toBe(String(pdf.length));
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="proof of d_livery (1).pdf"; filename*=UTF-8''proof%20of%20d%C3%A9livery%20%281%29.pdf`,
    );
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-security-policy']).toContain('sandbox');
    expect(download.headers['cache-control']).toBe('no-store');

    const anonymous = await harness.app.inject({ method: 'GET', url });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('Proof of delivery');
    for (const key of [other.sandboxKey, merchant.productionKey]) {
      const foreign = await harness.merchantRequest(key, { method: 'GET', url });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().errors[0].code).toBe('not_found');
    }
    const wrongId = await harness.merchantRequest(merchant.sandboxKey, {
      method: 'GET',
      url: `/api/v1/disputes/${opened.dispute.token}/documents/${document.id + 1000}`,
    });
    expect(wrongId.statusCode).toBe(404);
  });

  it('refuses a .png name holding text by its content, naming the position, and stores nothing', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const filesBefore = await storedFiles(documentsDir);
    const disputesBefore = await harness.database.db.select().from(disputes);
    const text = { name: 'document[]', filename: 'evidence.png', contentType: 'image/png', data: Buffer.from('just some text, not an image\n'.repeat(10)) };
    const response = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 100, [pngPart(), pdfPart(), text]));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([expect.objectContaining({ code: 'unsupported_document_type', field: 'document[2]' })]);
    expect(await storedFiles(documentsDir)).toEqual(filesBefore);
    expect(await harness.database.db.select().from(disputes)).toHaveLength(disputesBefore.length);
  });

  it('refuses a document that is HTML or an executable whatever its name or declared type', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    for (const data of [Buffer.from('<html><script>alert(1)</script></html>'), Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)])]) {
      const part = { name: 'document[]', filename: 'scan.pdf', contentType: 'application/pdf', data };
      const response = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 100, [part]));
      expect(response.statusCode).toBe(422);
      expect(response.json().errors[0]).toMatchObject({ code: 'unsupported_document_type', field: 'document[0]' });
    }
  });

  it('refuses 11 documents with 422 and stores nothing', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const filesBefore = await storedFiles(documentsDir);
    const eleven = Array.from({ length: 11 }, (_, index) => pngPart(`page-${index}.png`));
    const response = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 100, eleven));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[0]).toMatchObject({ code: 'too_many_documents', field: 'document[]' });
    expect(await storedFiles(documentsDir)).toEqual(filesBefore);
  });

  it('accepts exactly 10 documents', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const ten = Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? pngPart(`page-${index}.png`) : pdfPart(`page-${index}.pdf`)));
    const response = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 100, ten));
    expect(response.statusCode).toBe(200);
    expect(response.json().dispute.documents).toHaveLength(10);
  });

  it('refuses an 11 MiB document with 413 naming it, and leaves no partial file behind', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const filesBefore = await storedFiles(documentsDir);
    const big = Buffer.concat([tinyPdf(), Buffer.alloc(11 * MEBIBYTE, 0x20)]);
    const response = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 100, [pngPart(), pdfPart('huge.pdf', big)]));
    expect(response.statusCode).toBe(413);
    expect(response.json().errors[0]).toMatchObject({ code: 'document_too_large', field: 'document[1]' });
    expect(await storedFiles(documentsDir)).toEqual(filesBefore);
  });

  it('accepts a document of exactly 10 MiB', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const pdf = tinyPdf();
    const exact = Buffer.concat([pdf, Buffer.alloc(10 * MEBIBYTE - pdf.length, 0x20)]);
    const response = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 100, [pdfPart('exact.pdf', exact)]));
    expect(response.statusCode).toBe(200);
    expect(response.json().dispute.documents[0].size).toBe(10 * MEBIBYTE);
  });

  it('refuses an amount above what is still disputable: captured, less refunds and other disputes', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey, 1000);
    const above = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 1001));
    expect(above.statusCode).toBe(422);
    expect(above.json().errors[0]).toMatchObject({ code: 'amount_exceeds_disputable', field: 'amount' });
    expect((await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 600))).statusCode).toBe(200);
    const second = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 401));
    expect(second.statusCode).toBe(422);
    expect(second.json().errors[0].message).toContain('at most 400');
    expect((await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 400))).statusCode).toBe(200);
  });

  it("answers 404 for another merchant's payment, another environment's and an unknown token", async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    for (const [key, token] of [
      [other.sandboxKey, payment.token],
      [merchant.productionKey, payment.token],
      [merchant.sandboxKey, 'f'.repeat(32)],
      [merchant.sandboxKey, 'not-a-token'],
    ] as const) {
      const response = await postDispute(harness, key, disputeForm(token, 100, [pngPart()]));
      expect(response.statusCode).toBe(404);
      expect(response.json().errors[0].code).toBe('not_found');
    }
  });

  it('answers 409 invalid_state for a payment that is not approved or refunded', async () => {
    const token = await initPayment(harness, merchant.sandboxKey);
    const response = await postDispute(harness, merchant.sandboxKey, disputeForm(token, 100));
    expect(response.statusCode).toBe(409);
    expect(response.json().errors[0]).toMatchObject({ code: 'invalid_state' });
    expect(response.json().errors[0].message).toContain('init');
  });

  it('refuses with insufficient_balance when available lacks the amount, rolls back and removes the files', async () => {
    const poor = await harness.createMerchant('Merchant with fees');
    await setPayCommission(harness.database, poor.id, 2000, 0); // 20 %: a payment of 1000 leaves 800 available
    const payment = await approvedPayment(harness, poor.sandboxKey, 1000);
    const filesBefore = await storedFiles(documentsDir);
    const response = await postDispute(harness, poor.sandboxKey, disputeForm(payment.token, 900, [pngPart(), pdfPart()]));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[0].code).toBe('insufficient_balance');
    expect(await storedFiles(documentsDir)).toEqual(filesBefore);
    expect(await usdWallet(harness.database, poor.id)).toEqual({ currency: 'USD', available: 800, hold: 0 });
    expect(await harness.database.db.select().from(disputes).where(eq(disputes.merchantId, poor.id))).toEqual([]);
    expect((await postDispute(harness, poor.sandboxKey, disputeForm(payment.token, 800))).statusCode).toBe(200);
  });

  it('replays an Idempotency-Key with the same form, and refuses it with other documents', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const headers = { 'idempotency-key': `dispute-${payment.token}` };
    const first = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 100, [pngPart()]), headers);
    expect(first.statusCode).toBe(200);
    const filesAfterFirst = await storedFiles(documentsDir);
    const again = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 100, [pngPart()]), headers);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().dispute.token).toBe(first.json().dispute.token);
    expect(await storedFiles(documentsDir)).toEqual(filesAfterFirst); // the replay's upload was not kept
    const otherDocument = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 100, [pdfPart()]), headers);
    expect(otherDocument.statusCode).toBe(422);
    expect(otherDocument.json().errors[0].code).toBe('idempotency_key_reused');
    const rows = await harness.database.db.select().from(disputes).where(eq(disputes.paymentId, payment.id));
    expect(rows).toHaveLength(1);
  });

  it('gets one dispute for its merchant only', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const opened = (await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 100, [pngPart()]))).json();
    const got = await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: `/api/v1/disputes/${opened.dispute.token}` });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual({ ...opened, dispute: { ...opened.dispute } });
    const foreign = await harness.merchantRequest(other.sandboxKey, { method: 'GET', url: `/api/v1/disputes/${opened.dispute.token}` });
    expect(foreign.statusCode).toBe(404);
  });
});
