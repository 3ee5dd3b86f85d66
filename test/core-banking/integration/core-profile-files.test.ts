import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileFiles } from '../../../src/core-banking/store/schema.ts';
import { createTestBusiness, createTestProfile, coreRequest, openTestSession, type TestProfile } from '../../support/core-banking.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { multipartBody, tinyJpeg, tinyPdf, tinyPng, type FormPart } from '../../payments/integration/disputes-fixtures.ts';

const engines = await testEngines();
const MEBIBYTE = 1024 * 1024;

describe.each(engines)('profile KYC files on %s', (engine) => {
  let harness: Harness;
  let temporaryRoot: string;
  let filesDir: string;
  let ada: TestProfile;
  let session: string;
  let graceSession: string;

  beforeAll(async () => {
    temporaryRoot = await mkdtemp(join(tmpdir(), 'payrail-profile-files-'));
    filesDir = join(temporaryRoot, 'profile-files'); // created by the first upload
    harness = await startHarness(engine, { PAYRAIL_PROFILE_FILES_DIR: filesDir });
    const { db } = harness.database;
    ada = await createTestProfile(db);
    const grace = await createTestProfile(db, { name: 'Grace', surname: 'Hopper' });
    session = await openTestSession(db, ada.id);
    graceSession = await openTestSession(db, grace.id);
  });
  afterAll(async () => {
    await harness?.close();
    if (temporaryRoot) await rm(temporaryRoot, { recursive: true, force: true });
  });

  const filePart = (data: Buffer, filename = 'scan.png', contentType = 'image/png'): FormPart => ({ name: 'file', filename, contentType, data });
  const upload = (parts: FormPart[], as: string | null = session, query = '') => {
    const form = multipartBody(parts);
    return coreRequest(harness.app, {
      method: 'POST',
      url: `/api/v1/profiles/upload_file${query}`,
      ...(as === null ? {} : { session: as }),
      headers: { 'content-type': form.contentType },
      payload: form.payload,
    });
  };
  const deleteFile = (body: Record<string, unknown>, as = session, query = '') =>
    coreRequest(harness.app, { method: 'POST', url: `/api/v1/profiles/delete_file${query}`, session: as, payload: body });
  const filesShown = async (as = session, query = '') =>
    (await coreRequest(harness.app, { method: 'GET', url: `/api/v1/profiles/show${query}`, session: as })).json().object.profile.files;
  const storedNames = async () => (await readdir(filesDir).catch(() => [])).filter((name) => !name.startsWith('.'));
  const rowsOf = (profileId: number) => harness.database.db.select().from(profileFiles).where(eq(profileFiles.profileId, profileId)).orderBy(profileFiles.id);

  it('keeps a PNG by its content in a 0700 folder as a 0600 file, and lists it on the profile', async () => {
    const png = tinyPng();
    const response = await upload([{ name: 'kind', value: 'passport' }, filePart(png, '../../passport\u202e.png')]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      status: 200,
      file: { kind: 'passport', file_index: 0, name: 'passport.png', size: png.length, content_type: 'image/png', created_at: expect.any(String) },
    });
    const [row] = await rowsOf(ada.id);
    expect(row).toMatchObject({ kind: 'passport', contentType: 'image/png', sizeBytes: png.length, sha256: createHash('sha256').update(png).digest('hex') });
    expect(((await stat(filesDir)).mode & 0o777).toString(8)).toBe('700');
    const stored = join(filesDir, row!.storedName);
    expect(((await stat(stored)).mode & 0o777).toString(8)).toBe('600');
    expect(await readFile(stored)).toEqual(png);
    expect(await filesShown()).toEqual([expect.objectContaining({ kind: 'passport', file_index: 0, name: 'passport.png' })]);
  });

  it('accepts a file just under 10 MiB', async () => {
    const large = Buffer.concat([tinyPng(), Buffer.alloc(10 * MEBIBYTE - tinyPng().length - 1)]);
    const response = await upload([{ name: 'kind', value: 'other' }, filePart(large, 'large.png')]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().file).toMatchObject({ size: large.length, content_type: 'image/png' });
    expect((await deleteFile({ kind: 'other', file_index: 0 })).statusCode).toBe(200);
  });

  it('numbers files within their kind in upload order; delete_file removes one and the later ones move up', async () => {
    const kind = 'proof_of_address';
    for (const data of [tinyPdf('first'), tinyJpeg(), tinyPdf('third')]) {
      // the declared type plays no part: the content says what a file is
      expect((await upload([{ name: 'kind', value: kind }, filePart(data, 'doc', 'application/octet-stream')])).statusCode).toBe(200);
    }
    const indexes = (await filesShown()).filter((file: { kind: string }) => file.kind === kind);
    expect(indexes.map((file: { file_index: number; content_type: string }) => [file.file_index, file.content_type])).toEqual([
      [0, 'application/pdf'],
      [1, 'image/jpeg'],
      [2, 'application/pdf'],
    ]);
    const before = await storedNames();
    const deleted = await deleteFile({ kind, file_index: 1 });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ success: true, status: 200 });
    expect((await storedNames()).length).toBe(before.length - 1);
    const after = (await filesShown()).filter((file: { kind: string }) => file.kind === kind);
    expect(after.map((file: { file_index: number; size: number }) => file.file_index)).toEqual([0, 1]);
    expect(after[1].size).toBe(tinyPdf('third').length);
    const jpegRow = (await rowsOf(ada.id)).find((row) => row.contentType === 'image/jpeg');
    expect(jpegRow?.deletedAt).toBeInstanceOf(Date); // the record of what was uploaded stays
  });

  it("answers 404 for a file index or kind with no live file, and for another person's files", async () => {
    for (const body of [
      { kind: 'passport', file_index: 5 },
      { kind: 'selfie', file_index: 0 },
    ]) {
      const response = await deleteFile(body);
      expect(response.statusCode).toBe(404);
      expect(response.json().errors[0]).toMatchObject({ code: 'not_found', kind: 'profile_file' });
    }
    expect((await deleteFile({ kind: 'passport', file_index: 0 }, graceSession)).statusCode).toBe(404);
    expect(await filesShown()).toContainEqual(expect.objectContaining({ kind: 'passport', file_index: 0 }));
    expect(await filesShown(graceSession)).toEqual([]);
  });

  it.each<[string, FormPart[], number, string, string]>([
    [
      'a text file',
      [
        { name: 'kind', value: 'other' },
        { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', data: Buffer.from('not a pdf at all') },
      ],
      422,
      'unsupported_file_type',
      'file',
    ],
    [
      'an empty file',
      [
        { name: 'kind', value: 'other' },
        { name: 'file', filename: 'a.png', data: Buffer.alloc(0) },
      ],
      422,
      'invalid_file',
      'file',
    ],
    ['no file', [{ name: 'kind', value: 'other' }], 422, 'invalid_field', 'file'],
    ['no kind', [{ name: 'file', filename: 'a.png', data: tinyPng() }], 422, 'invalid_field', 'kind'],
    [
      'an unknown kind',
      [
        { name: 'kind', value: 'tax_return' },
        { name: 'file', filename: 'a.png', data: tinyPng() },
      ],
      422,
      'invalid_field',
      'kind',
    ],
    [
      'two files',
      [
        { name: 'kind', value: 'other' },
        { name: 'file', filename: 'a.png', data: tinyPng() },
        { name: 'file', filename: 'b.png', data: tinyPng() },
      ],
      422,
      'too_many_files',
      'file',
    ],
    [
      'a file under another name',
      [
        { name: 'kind', value: 'other' },
        { name: 'document', filename: 'a.png', data: tinyPng() },
      ],
      422,
      'unknown_field',
      'document',
    ],
    [
      'kind twice',
      [
        { name: 'kind', value: 'other' },
        { name: 'kind', value: 'selfie' },
        { name: 'file', filename: 'a.png', data: tinyPng() },
      ],
      422,
      'duplicate_field',
      'kind',
    ],
    [
      'a file over 10 MiB',
      [
        { name: 'kind', value: 'other' },
        { name: 'file', filename: 'big.png', data: Buffer.concat([tinyPng(), Buffer.alloc(10 * MEBIBYTE)]) },
      ],
      413,
      'file_too_large',
      'file',
    ],
  ])('refuses %s and keeps nothing', async (_name, parts, status, code, field) => {
    const before = await storedNames();
    const rowsBefore = (await rowsOf(ada.id)).length;
    const response = await upload(parts);
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toMatchObject({ success: false, status });
    expect(response.json().errors[0]).toMatchObject({ code, field });
    expect(await storedNames()).toEqual(before);
    expect((await readdir(filesDir)).filter((name) => name.startsWith('.incoming-'))).toEqual([]);
    expect((await rowsOf(ada.id)).length).toBe(rowsBefore);
  });

  it('refuses a JSON body with 415 and a request without session with 401 (reading nothing)', async () => {
    const json = await coreRequest(harness.app, { method: 'POST', url: '/api/v1/profiles/upload_file', session, payload: { kind: 'other' } });
    expect(json.statusCode).toBe(415);
    const anonymous = await upload([{ name: 'kind', value: 'other' }, filePart(tinyPng())], null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().errors[0]).toMatchObject({ code: 'session_required', kind: 'session' });
    const expired = await upload([{ name: 'kind', value: 'other' }, filePart(tinyPng())], await openTestSession(harness.database.db, ada.id, -1));
    expect(expired.statusCode).toBe(401);
    const noSession = await coreRequest(harness.app, { method: 'POST', url: '/api/v1/profiles/delete_file', payload: { kind: 'passport', file_index: 0 } });
    expect(noSession.statusCode).toBe(401);
  });

  it('keeps at most 20 live files of a kind', async () => {
    const busy = await createTestProfile(harness.database.db);
    const busySession = await openTestSession(harness.database.db, busy.id);
    const rows = Array.from({ length: 20 }, (_, index) => ({
      profileId: busy.id,
      kind: 'selfie',
      fileName: `selfie-${index}.png`,
      contentType: 'image/png',
      storedName: createHash('md5').update(`${busy.id}-${index}`).digest('hex'),
      sizeBytes: 1,
      sha256: '0'.repeat(64),
    }));
    await harness.database.db.insert(profileFiles).values(rows);
    const before = await storedNames();
    const refused = await upload([{ name: 'kind', value: 'selfie' }, filePart(tinyPng())], busySession);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0]).toMatchObject({ code: 'too_many_files', kind: 'limit' });
    expect(await storedNames()).toEqual(before);
    expect((await upload([{ name: 'kind', value: 'id_card' }, filePart(tinyPng())], busySession)).statusCode).toBe(200);
    expect((await deleteFile({ kind: 'selfie', file_index: 19 }, busySession)).statusCode).toBe(200);
    expect((await upload([{ name: 'kind', value: 'selfie' }, filePart(tinyPng())], busySession)).statusCode).toBe(200);
  });

  it('files a document under a business account its member acts on, and nowhere else', async () => {
    const businessId = await createTestBusiness(harness.database.db, [{ id: ada.id }]);
    const query = `?segregated_account_id=${businessId}`;
    const response = await upload([{ name: 'kind', value: 'company_registration' }, filePart(tinyPdf('certificate'), 'certificate.pdf')], session, query);
    expect(response.statusCode).toBe(200);
    expect(await filesShown(session, query)).toEqual([expect.objectContaining({ kind: 'company_registration', file_index: 0 })]);
    expect(await filesShown()).not.toContainEqual(expect.objectContaining({ kind: 'company_registration' }));
    const refused = await upload([{ name: 'kind', value: 'other' }, filePart(tinyPng())], graceSession, query);
    expect(refused.statusCode).toBe(403);
    expect((await deleteFile({ kind: 'company_registration', file_index: 0 }, graceSession, query)).statusCode).toBe(403);
    expect((await deleteFile({ kind: 'company_registration', file_index: 0 }, session, query)).statusCode).toBe(200);
  });

  it('refuses delete_file with a bad kind, a negative index or an unknown field', async () => {
    for (const body of [
      { kind: 'tax_return', file_index: 0 },
      { kind: 'passport', file_index: -1 },
      { kind: 'passport', file_index: 0, force: true },
      { kind: 'passport' },
    ]) {
      expect((await deleteFile(body)).statusCode).toBe(422);
    }
  });
});
