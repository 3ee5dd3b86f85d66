import {
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { errorCode } from './type-guards.ts';

export class DataDirLockedError extends Error {}

const DIRECTORY_MODE = 0o700;
const FILE_MODE = 0o600;

// The data folder holds keys, the certificate's private key and the embedded database: only its owner may
// read it, even when the operator created it (with the usual 0755) before the first start.
export function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: DIRECTORY_MODE });
  restrictToOwner(realpathSync(dataDir));
}

// 0700 for a folder and the folders in it, 0600 for every file. Symbolic links inside are not followed.
export function restrictToOwner(path: string): void {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return; // removed meanwhile (a temporary file)
  if (stats.isSymbolicLink()) return;
  if (!stats.isDirectory()) {
    if ((stats.mode & 0o777) !== FILE_MODE) chmodSync(path, FILE_MODE);
    return;
  }
  if ((stats.mode & 0o777) !== DIRECTORY_MODE) chmodSync(path, DIRECTORY_MODE);
  for (const entry of readdirSync(path)) restrictToOwner(join(path, entry));
}

// One process owns a data folder: PGlite is single-process, and two writers would corrupt it.
export function lockDataDir(dataDir: string): () => void {
  ensureDataDir(dataDir);
  const lockPath = join(dataDir, 'payrail.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const descriptor = openSync(lockPath, 'wx', FILE_MODE);
      writeSync(descriptor, String(process.pid));
      closeSync(descriptor);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      const holderPid = Number(readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(holderPid) && holderPid > 0 && isProcessAlive(holderPid)) {
        throw new DataDirLockedError(
          `the data folder ${dataDir} is in use by another Payrail process (pid ${holderPid}); stop it first, or point PAYRAIL_DATA_DIR at another folder`,
        );
      }
      rmSync(lockPath, { force: true }); // stale lock of a process that died
    }
  }
  throw new DataDirLockedError(`could not lock the data folder ${dataDir}`);
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

// Reads a secret file, or creates it with a fresh value (mode 0600). Returns whether it was created.
export function readOrCreateSecretFile(path: string, create: () => string): { value: string; created: boolean } {
  if (existsSync(path)) return { value: readFileSync(path, 'utf8').trim(), created: false };
  const value = create();
  const descriptor = openSync(path, 'wx', FILE_MODE);
  writeSync(descriptor, `${value}\n`);
  closeSync(descriptor);
  chmodSync(path, FILE_MODE);
  return { value, created: true };
}

// A reader sees the old content or the new, never half a file: written beside it (mode 0600), then renamed over it.
export function writeFileAtomically(path: string, content: string): void {
  const temporaryPath = `${path}.${process.pid}.tmp`;
  const descriptor = openSync(temporaryPath, 'w', FILE_MODE);
  try {
    writeSync(descriptor, content);
  } finally {
    closeSync(descriptor);
  }
  chmodSync(temporaryPath, FILE_MODE);
  renameSync(temporaryPath, path);
}
