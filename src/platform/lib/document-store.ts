import { createHash } from 'node:crypto';
import type { ReadStream } from 'node:fs';
import { chmod, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { randomHex } from './crypto.ts';
import { errorCode, errorMessage, isOneOf } from './type-guards.ts';

// Evidence files of disputes, kept in one folder outside anything served (the data folder or
// PAYRAIL_DISPUTE_DOCUMENTS_DIR): folder 0700, files 0600, each under a random name. An upload is written to a
// temporary name first and renamed once it is whole and accepted, so a stored name never points at a partial file.

export const DOCUMENT_MEDIA_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type DocumentMediaType = (typeof DOCUMENT_MEDIA_TYPES)[number];

export const DOCUMENT_FILE_NAME_LENGTH_MAX = 255;

const DIRECTORY_MODE = 0o700;
const FILE_MODE = 0o600;
const SNIFF_BYTES = 4100; // what file-type reads to recognise a format (its reasonableDetectionSizeInBytes)
const STORED_NAME_PATTERN = /^[0-9a-f]{32}$/;
const INCOMING_PREFIX = '.incoming-';
const INCOMING_STALE_MS = 60 * 60 * 1000; // a temporary file this old belongs to a request long gone
const EXTENSION_LENGTH_MAX = 16;

// An upload written to its temporary name, with what its content says it is.
export interface StagedDocument {
  readonly temporaryPath: string;
  readonly sizeBytes: number;
  readonly sha256: string;
  readonly mediaType: string | null; // recognised from the bytes (file-type); null: not a known format
}

// The upload's own stream failed (the client broke off, or sent malformed multipart): not a fault of the store.
export class DocumentSourceError extends Error {
  constructor(cause: unknown) {
    super(`the document upload broke off: ${errorMessage(cause)}`, { cause });
    this.name = 'DocumentSourceError';
  }
}

// A stored name the database holds whose file is gone from the folder.
export class DocumentMissingError extends Error {
  constructor(storedName: string) {
    super(`dispute document ${storedName} is missing from the documents folder`);
    this.name = 'DocumentMissingError';
  }
}

export function isDocumentMediaType(mediaType: string | null): mediaType is DocumentMediaType {
  return isOneOf(DOCUMENT_MEDIA_TYPES, mediaType);
}

export class DocumentStore {
  readonly directory: string;
  #ready: Promise<void> | null = null;

  constructor(directory: string) {
    this.directory = directory;
  }

  // Writes an upload to a temporary file (0600) while hashing it; the caller reads the source's truncation itself.
  // Past writtenBytesMax (what a quota has left) the rest is read and counted but not written: the caller refuses a
  // document whose sizeBytes is over that, and nothing beyond the quota ever reaches the disk.
  async stage(source: AsyncIterable<Buffer>, writtenBytesMax = Number.POSITIVE_INFINITY): Promise<StagedDocument> {
    await this.#ensureReady();
    const temporaryPath = join(this.directory, `${INCOMING_PREFIX}${randomHex(16)}`);
    const handle = await open(temporaryPath, 'wx', FILE_MODE);
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let headBytes = 0;
    let sizeBytes = 0;
    try {
      const chunks = source[Symbol.asyncIterator]();
      for (;;) {
        let next: IteratorResult<Buffer>;
        try {
          next = await chunks.next();
        } catch (error) {
          throw new DocumentSourceError(error);
        }
        if (next.done) break;
        const chunk = next.value;
        hash.update(chunk);
        sizeBytes += chunk.length;
        if (headBytes < SNIFF_BYTES) {
          const part = chunk.subarray(0, SNIFF_BYTES - headBytes);
          head.push(part);
          headBytes += part.length;
        }
        if (sizeBytes <= writtenBytesMax) await handle.write(chunk);
      }
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(temporaryPath, { force: true });
      throw error;
    }
    await handle.close();
    const detected = sizeBytes === 0 ? undefined : await fileTypeFromBuffer(Buffer.concat(head));
    return { temporaryPath, sizeBytes, sha256: hash.digest('hex'), mediaType: detected?.mime ?? null };
  }

  // Gives an accepted upload its stored name.
  async keep(staged: StagedDocument): Promise<string> {
    const storedName = randomHex(16);
    await rename(staged.temporaryPath, this.#pathOf(storedName));
    return storedName;
  }

  async discard(staged: StagedDocument): Promise<void> {
    await rm(staged.temporaryPath, { force: true });
  }

  async remove(storedName: string): Promise<void> {
    await rm(this.#pathOf(storedName), { force: true });
  }

  // A stored document to stream back; its size from the file itself.
  async read(storedName: string): Promise<{ stream: ReadStream; sizeBytes: number }> {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(this.#pathOf(storedName), 'r');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw new DocumentMissingError(storedName);
      throw error;
    }
    try {
      const { size } = await handle.stat();
      return { stream: handle.createReadStream(), sizeBytes: size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  #pathOf(storedName: string): string {
    if (!STORED_NAME_PATTERN.test(storedName)) throw new Error('a stored document name is 32 lowercase hex characters');
    return join(this.directory, storedName);
  }

  // The folder exists with mode 0700 (created on first use, so a process that never stores a document never
  // needs it); temporary files left by a crashed process are removed.
  #ensureReady(): Promise<void> {
    this.#ready ??= this.#prepare().catch((error: unknown) => {
      this.#ready = null;
      throw error;
    });
    return this.#ready;
  }

  async #prepare(): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: DIRECTORY_MODE });
    const folder = await stat(this.directory);
    if ((folder.mode & 0o777) !== DIRECTORY_MODE) await chmod(this.directory, DIRECTORY_MODE);
    const staleBefore = Date.now() - INCOMING_STALE_MS;
    for (const name of await readdir(this.directory)) {
      if (!name.startsWith(INCOMING_PREFIX)) continue;
      const path = join(this.directory, name);
      const file = await stat(path).catch(() => null);
      if (file !== null && file.mtimeMs < staleBefore) await rm(path, { force: true });
    }
  }
}

// The name a merchant gave a file, fit for display only: no path, no control or bidirectional-override
// characters, at most DOCUMENT_FILE_NAME_LENGTH_MAX characters (keeping the extension when it is cut).
export function sanitizeFileName(name: string | undefined, fallback: string): string {
  const lastSegment = (name ?? '').split(/[/\\]/).at(-1) ?? '';
  const cleaned = lastSegment
    .normalize('NFC')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, '')
    .trim()
    .replace(/^\.+/, '');
  const characters = Array.from(cleaned.length > 0 ? cleaned : fallback);
  if (characters.length <= DOCUMENT_FILE_NAME_LENGTH_MAX) return characters.join('');
  const dot = characters.lastIndexOf('.');
  const extension = dot > 0 && characters.length - dot <= EXTENSION_LENGTH_MAX ? characters.slice(dot) : [];
  return [...characters.slice(0, DOCUMENT_FILE_NAME_LENGTH_MAX - extension.length), ...extension].join('');
}

// Content-Disposition for a download: always an attachment, the name in ASCII and in RFC 5987 UTF-8.
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
