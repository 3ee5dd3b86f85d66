import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { approvedPayment, disputeForm, multipartBody, pdfPart, pngPart, postDispute, storedFiles, tinyJpeg, tinyPdf, tinyPng } from './disputes-fixtures.ts';

const engines = await testEngines();

describe.each(engines)('the dispute form and its limits on %s', (engine) => {
  let harness: Harness;
  let documentsDir: string;
  let temporaryRoot: string;
  let merchant: TestMerchant;

  beforeAll(async () => {
    temporaryRoot = await mkdtemp(join(tmpdir(), 'payrail-dispute-form-'));
    documentsDir = join(temporaryRoot, 'dispute-documents'); // created by the first upload
    harness = await startHarness(engine, { PAYRAIL_DISPUTE_DOCUMENTS_DIR: documentsDir });
    merchant = await harness.createMerchant('Disputing merchant');
  });
  afterAll(async () => {
    await harness?.close();
    if (temporaryRoot) await rm(temporaryRoot, { recursive: true, force: true });
  });

  it('keeps the file name for display only: no path, no control characters, at most 255 characters', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const long = `${'x'.repeat(300)}.png`;
    const response = await postDispute(
      harness,
      merchant.sandboxKey,
      disputeForm(payment.token, 100, [
        pngPart('../../etc/pass\u202ewd.png'),
        pngPart(long),
        { name: 'document[]', contentType: 'application/octet-stream', data: tinyPdf() },
      ]),
    );
    expect(response.statusCode).toBe(200);
    const names = response.json().dispute.documents.map((document: { file_name: string }) => document.file_name);
    expect(names[0]).toBe('passwd.png');
    expect(names[1]).toHaveLength(255);
    expect(names[1].endsWith('.png')).toBe(true);
    expect(names[2]).toBe('document-3');
  });

  it('takes document as well as document[], skips a file input left empty and refuses an empty named file', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const leftEmpty = { name: 'document[]', filename: '', data: Buffer.alloc(0) };
    const accepted = await postDispute(
      harness,
      merchant.sandboxKey,
      disputeForm(payment.token, 100, [leftEmpty, { name: 'document', filename: 'scan.jpg', contentType: 'image/jpeg', data: tinyJpeg() }]),
    );
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().dispute.documents).toMatchObject([{ file_name: 'scan.jpg', media_type: 'image/jpeg' }]);
    const empty = await postDispute(
      harness,
      merchant.sandboxKey,
      disputeForm(payment.token, 100, [pngPart(), { name: 'document[]', filename: 'empty.pdf', data: Buffer.alloc(0) }]),
    );
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors[0]).toMatchObject({ code: 'invalid_document', field: 'document[1]' });
  });

  it.each([
    [
      'no description',
      [
        { name: 'token', value: 'x' },
        { name: 'amount', value: '1' },
      ],
      'description',
      'invalid_field',
    ],
    [
      'an amount that is not a positive integer',
      [
        { name: 'description', value: 'd' },
        { name: 'amount', value: '1.5' },
      ],
      'amount',
      'invalid_field',
    ],
    [
      'a zero amount',
      [
        { name: 'description', value: 'd' },
        { name: 'amount', value: '0' },
      ],
      'amount',
      'invalid_field',
    ],
    [
      'a hexadecimal amount',
      [
        { name: 'description', value: 'd' },
        { name: 'amount', value: '0x10' },
      ],
      'amount',
      'invalid_field',
    ],
    [
      'an amount above 2^53',
      [
        { name: 'description', value: 'd' },
        { name: 'amount', value: '9999999999999999' },
      ],
      'amount',
      'invalid_field',
    ],
    [
      'a description of 2001 characters',
      [
        { name: 'description', value: 'é'.repeat(2001) },
        { name: 'amount', value: '1' },
      ],
      'description',
      'invalid_field',
    ],
    [
      'a blank description',
      [
        { name: 'description', value: '   ' },
        { name: 'amount', value: '1' },
      ],
      'description',
      'invalid_field',
    ],
    [
      'a NUL in the description',
      [
        { name: 'description', value: 'a\u0000b' },
        { name: 'amount', value: '1' },
      ],
      'description',
      'invalid_field',
    ],
    [
      'an unknown field',
      [
        { name: 'description', value: 'd' },
        { name: 'amount', value: '1' },
        { name: 'currency', value: 'USD' },
      ],
      'currency',
      'unknown_field',
    ],
    [
      'a field twice',
      [
        { name: 'description', value: 'd' },
        { name: 'amount', value: '1' },
        { name: 'amount', value: '2' },
      ],
      'amount',
      'duplicate_field',
    ],
    [
      'document[] as text',
      [
        { name: 'description', value: 'd' },
        { name: 'amount', value: '1' },
        { name: 'document[]', value: 'abc' },
      ],
      'document[]',
      'invalid_field',
    ],
    [
      'a file under another name',
      [
        { name: 'description', value: 'd' },
        { name: 'amount', value: '1' },
        { name: 'evidence', filename: 'a.png', data: tinyPng() },
      ],
      'evidence',
      'unknown_field',
    ],
  ] as const)('refuses %s with 422 naming the field', async (_case, parts, field, code) => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const withToken = parts.map((part) => (part.name === 'token' ? { name: 'token', value: payment.token } : part));
    const hasToken = withToken.some((part) => part.name === 'token');
    const form = multipartBody([...(hasToken ? [] : [{ name: 'token', value: payment.token }]), ...withToken]);
    const response = await postDispute(harness, merchant.sandboxKey, form);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ code, field })]));
  });

  it('refuses a description above 8 KiB and a flood of fields without reading them into memory', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const huge = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 1, [], 'x'.repeat(9000)));
    expect(huge.statusCode).toBe(422);
    expect(huge.json().errors[0]).toMatchObject({ field: 'description' });
    const flood = multipartBody(Array.from({ length: 30 }, (_, index) => ({ name: `f${index}`, value: 'v' })));
    const flooded = await postDispute(harness, merchant.sandboxKey, flood);
    expect(flooded.statusCode).toBe(413);
  });

  it('answers 415 to JSON, 400 to a multipart body without a boundary, 401 without a key', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const json = await harness.merchantRequest(merchant.sandboxKey, {
      method: 'POST',
      url: '/api/v1/disputes',
      payload: { token: payment.token, description: 'd', amount: 1 },
    });
    expect(json.statusCode).toBe(415);
    const noBoundary = await harness.merchantRequest(merchant.sandboxKey, {
      method: 'POST',
      url: '/api/v1/disputes',
      payload: 'garbage',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().errors[0].code).toBe('invalid_multipart');
    const form = disputeForm(payment.token, 1);
    const anonymous = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/disputes',
      payload: form.payload,
      headers: { 'content-type': form.contentType },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a body cut off in the middle of a document with 400 and stores nothing', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey);
    const filesBefore = await storedFiles(documentsDir);
    const form = disputeForm(payment.token, 1, [pdfPart('cut.pdf', Buffer.concat([tinyPdf(), Buffer.alloc(64 * 1024, 0x20)]))]);
    const cut = form.payload.subarray(0, form.payload.length - 32 * 1024);
    const response = await postDispute(harness, merchant.sandboxKey, { payload: cut, contentType: form.contentType });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].code).toBe('invalid_multipart');
    expect(await storedFiles(documentsDir)).toEqual(filesBefore);
  });
});
