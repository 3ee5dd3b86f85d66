import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { decideTransition, NO_FINAL_CHANGE } from '../../../src/payments/domain/payment-status.ts';
import type { Database } from '../../../src/platform/database.ts';
import { readWallets, type Wallet } from '../../../src/ledger/store/ledger-repo.ts';
import { transitionPayment } from '../../support/bare-transition.ts';
import { commissions } from '../../../src/ledger/store/schema.ts';
import { payments } from '../../../src/payments/store/schema.ts';
import { validPaymentA, type Harness } from '../../support/harness.ts';

// A real 2×2 RGB PNG: signature, IHDR, one zlib-compressed IDAT, IEND, every chunk with its CRC.
export function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0); // width
  header.writeUInt32BE(2, 4); // height
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const rows = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]); // filter byte + 2 pixels, twice
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// The start of a JFIF JPEG (SOI, APP0 JFIF header, a comment, EOI): what a scanner writes first.
export function tinyJpeg(): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x0e]), Buffer.from('scan page 1!')]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, comment, Buffer.from([0xff, 0xd9])]);
}

// A real one-page PDF with a correct cross-reference table.
export function tinyPdf(text = 'Delivery receipt'): Buffer {
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export type FormPart = { name: string; value: string } | { name: string; filename?: string; contentType?: string; data: Buffer };

// A multipart/form-data body built by hand, so a test controls every part (names, file names, types).
export function multipartBody(parts: readonly FormPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----payrail-test-${randomBytes(8).toString('hex')}`;
  const pieces: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if ('data' in part) {
      if (part.filename !== undefined) head += `; filename="${part.filename}"`;
      head += `\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}`;
    }
    pieces.push(Buffer.from(`${head}\r\n\r\n`, 'utf8'), 'data' in part ? part.data : Buffer.from(part.value, 'utf8'), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(pieces), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function disputeForm(
  token: string,
  amount: number | string,
  documents: readonly FormPart[] = [],
  description = 'The customer says the parcel never arrived',
) {
  return multipartBody([{ name: 'token', value: token }, { name: 'description', value: description }, { name: 'amount', value: String(amount) }, ...documents]);
}

export const pngPart = (filename = 'receipt.png', data = tinyPng()): FormPart => ({ name: 'document[]', filename, contentType: 'image/png', data });
export const pdfPart = (filename = 'invoice.pdf', data = tinyPdf()): FormPart => ({ name: 'document[]', filename, contentType: 'application/pdf', data });

export async function postDispute(harness: Harness, key: string, form: { payload: Buffer; contentType: string }, headers: Record<string, string> = {}) {
  return harness.merchantRequest(key, {
    method: 'POST',
    url: '/api/v1/disputes',
    payload: form.payload,
    headers: { 'content-type': form.contentType, ...headers },
  });
}

// A payment created through the API and approved through the state machine (which posts its capture).
export async function approvedPayment(harness: Harness, key: string, amount = 1000): Promise<{ id: number; token: string }> {
  const created = await harness.merchantRequest(key, { method: 'POST', url: '/api/v1/payments', payload: { ...validPaymentA, amount } });
  if (created.statusCode !== 200) throw new Error(`payment create failed: ${created.body}`);
  const token = created.json().token as string;
  const [row] = await harness.database.db.select({ id: payments.id }).from(payments).where(eq(payments.token, token));
  const id = row!.id;
  await harness.database.db.transaction(async (tx) => {
    const moved = await transitionPayment(tx, id, decideTransition('init', 'approved', NO_FINAL_CHANGE));
    if (!moved) throw new Error('payment approval lost a race');
  });
  return { id, token };
}

export async function initPayment(harness: Harness, key: string): Promise<string> {
  const created = await harness.merchantRequest(key, { method: 'POST', url: '/api/v1/payments', payload: validPaymentA });
  return created.json().token as string;
}

export async function setPayCommission(database: Database, merchantId: number, percentBp: number, fixedMinor: number): Promise<void> {
  await database.db.insert(commissions).values({ merchantId, operation: 'pay', percentBp, fixedMinor });
}

export async function usdWallet(database: Database, merchantId: number, environment: 'sandbox' | 'production' = 'sandbox'): Promise<Wallet> {
  const [wallet] = await readWallets(database.db, { merchantId, environment }, 'USD');
  return wallet ?? { currency: 'USD', available: 0, hold: 0 };
}

// The files in the documents folder, with their modes.
export async function storedFiles(directory: string): Promise<{ name: string; mode: number; size: number }[]> {
  const names = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return Promise.all(
    names.map(async (name) => {
      const file = await stat(join(directory, name));
      return { name, mode: file.mode & 0o777, size: file.size };
    }),
  );
}
