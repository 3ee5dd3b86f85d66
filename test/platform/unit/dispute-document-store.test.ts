import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentDisposition, DocumentSourceError, DocumentStore, sanitizeFileName } from '../../../src/platform/lib/document-store.ts';

const PDF_HEAD = Buffer.from('%PDF-1.4\n%âãÏÓ\n');
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

describe('the dispute document store', () => {
  let root: string;
  let store: DocumentStore;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'payrail-document-store-'));
    store = new DocumentStore(join(root, 'nested', 'documents'));
  });
  afterAll(async () => rm(root, { recursive: true, force: true }));

  it.each([
    ['a PDF', PDF_HEAD, 'application/pdf'],
    ['a PNG', PNG_HEAD, 'image/png'],
    ['a JPEG', JPEG_HEAD, 'image/jpeg'],
    ['text', Buffer.from('hello, this is not a document'), null],
    ['a GIF', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), 'image/gif'],
  ])('recognises %s by its bytes', async (_case, head, mediaType) => {
    const staged = await store.stage(Readable.from([head, Buffer.alloc(5000, 1)]));
    expect(staged.mediaType).toBe(mediaType);
    expect(staged.sizeBytes).toBe(head.length + 5000);
    await store.discard(staged);
  });

  it('creates its folder 0700, writes 0600, keeps under a random name and removes', async () => {
    const staged = await store.stage(Readable.from([PDF_HEAD]));
    expect((await stat(store.directory)).mode & 0o777).toBe(0o700);
    expect((await stat(staged.temporaryPath)).mode & 0o777).toBe(0o600);
    const storedName = await store.keep(staged);
    expect(storedName).toMatch(/^[0-9a-f]{32}$/);
    expect(await readdir(store.directory)).toEqual([storedName]);
    const { stream, sizeBytes } = await store.read(storedName);
    expect(sizeBytes).toBe(PDF_HEAD.length);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(PDF_HEAD);
    await store.remove(storedName);
    expect(await readdir(store.directory)).toEqual([]);
  });

  it('hashes what it wrote', async () => {
    const staged = await store.stage(Readable.from([Buffer.from('abc')]));
    expect(staged.sha256).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await readFile(staged.temporaryPath, 'utf8')).toBe('abc');
    await store.discard(staged);
  });

  it('past writtenBytesMax (a quota left) counts and hashes the rest but writes none of it to disk', async () => {
    const chunks = [PDF_HEAD, Buffer.alloc(1000, 1), Buffer.alloc(1000, 2), Buffer.alloc(1000, 3)];
    const whole = await store.stage(Readable.from(chunks));
    const capped = await store.stage(Readable.from(chunks), PDF_HEAD.length + 1500);
    expect(capped).toMatchObject({ sizeBytes: whole.sizeBytes, sha256: whole.sha256, mediaType: 'application/pdf' });
    expect((await stat(capped.temporaryPath)).size).toBe(PDF_HEAD.length + 1000);
    const nothing = await store.stage(Readable.from(chunks), 0);
    expect((await stat(nothing.temporaryPath)).size).toBe(0);
    await Promise.all([whole, capped, nothing].map((staged) => store.discard(staged)));
  });

  it('removes its partial file when the upload breaks off, and says so', async () => {
    async function* breaking() {
      yield PDF_HEAD;
      throw new Error('connection reset');
    }
    await expect(store.stage(breaking())).rejects.toBeInstanceOf(DocumentSourceError);
    expect(await readdir(store.directory)).toEqual([]);
  });

  it('refuses a stored name that is not its own (no path ever reaches the folder)', async () => {
    await expect(store.read('../../etc/passwd')).rejects.toThrow(/32 lowercase hex/);
    await expect(store.remove('../x')).rejects.toThrow(/32 lowercase hex/);
  });

  it('clears temporary files a crashed process left more than an hour ago', async () => {
    const directory = join(root, 'crashed');
    const first = new DocumentStore(directory);
    const staged = await first.stage(Readable.from([PDF_HEAD]));
    const recent = await first.stage(Readable.from([PDF_HEAD]));
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(staged.temporaryPath, twoHoursAgo, twoHoursAgo);
    await writeFile(join(directory, '0123456789abcdef0123456789abcdef'), 'kept document');
    const restarted = new DocumentStore(directory);
    await restarted.discard(await restarted.stage(Readable.from([PDF_HEAD])));
    const left = await readdir(directory);
    expect(left).toContain('0123456789abcdef0123456789abcdef');
    expect(left).toContain(recent.temporaryPath.split('/').at(-1));
    expect(left).not.toContain(staged.temporaryPath.split('/').at(-1));
  });
});

describe('display file names', () => {
  it.each([
    ['receipt.pdf', 'receipt.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\scan.png', 'scan.png'],
    ['in\u0000voice\u001f.pdf', 'invoice.pdf'],
    ['evil\u202egnp.pdf', 'evilgnp.pdf'],
    ['  .hidden.png  ', 'hidden.png'],
    ['...', 'document-1'],
    ['', 'document-1'],
    [undefined, 'document-1'],
    ['Квитанция №5.pdf', 'Квитанция №5.pdf'],
  ])('%j → %j', (name, display) => {
    expect(sanitizeFileName(name, 'document-1')).toBe(display);
  });

  it('cuts a long name to 255 characters, keeping its extension and whole characters', () => {
    const cut = sanitizeFileName(`${'😀'.repeat(300)}.jpeg`, 'x');
    expect(Array.from(cut)).toHaveLength(255);
    expect(cut.endsWith('😀.jpeg')).toBe(true);
    expect(sanitizeFileName('a'.repeat(400), 'x')).toBe('a'.repeat(255));
  });
});

describe('Content-Disposition of a download', () => {
  it.each([
    ['receipt.pdf', `attachment; filename="receipt.pdf"; filename*=UTF-8''receipt.pdf`],
    ['a "quoted" \\ name.png', `attachment; filename="a _quoted_ _ name.png"; filename*=UTF-8''a%20%22quoted%22%20%5C%20name.png`],
    ['Квитанция (1).pdf', `attachment; filename="_________ (1).pdf"; filename*=UTF-8''%D0%9A%D0%B2%D0%B8%D1%82%D0%B0%D0%BD%D1%86%D0%B8%D1%8F%20%281%29.pdf`],
  ])('%j', (name, header) => {
    expect(attachmentDisposition(name)).toBe(header);
  });
});
