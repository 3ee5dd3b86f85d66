import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Passwords of core banking profiles: scrypt (memory-hard, in node:crypto), a random salt per password, and a
// self-describing string `scrypt$ln=15,r=8,p=1$<salt>$<hash>` (base64url), so stronger parameters can come later
// while old hashes still verify.

export const PASSWORD_LENGTH_MIN = 10;
export const PASSWORD_LENGTH_MAX = 128;

interface ScryptParameters {
  logN: number; // cost: N = 2^logN
  r: number;
  p: number;
}

const SCRYPT_LOG_N_DEFAULT = 15; // 32 MiB and about 50 ms per hash (PAYRAIL_PASSWORD_SCRYPT_LOG_N)
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
// Bounds on what a stored string may ask for, so a tampered row cannot make one verify cost gigabytes.
const LOG_N_MAX = 20;
const R_MAX = 32;
const P_MAX = 4;
const ENCODED = /^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d)\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{32,128})$/;

function derive(password: string, salt: Buffer, parameters: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = {
    N: 2 ** parameters.logN,
    r: parameters.r,
    p: parameters.p,
    maxmem: 256 * 2 ** parameters.logN * parameters.r + 1024 * 1024,
  };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, HASH_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const parametersOf = (logN: number): ScryptParameters => ({ logN, r: BLOCK_SIZE, p: PARALLELISM });

export async function hashPassword(password: string, logN = SCRYPT_LOG_N_DEFAULT): Promise<string> {
  const parameters = parametersOf(logN);
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, parameters);
  return `scrypt$ln=${parameters.logN},r=${parameters.r},p=${parameters.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

interface ParsedHash {
  parameters: ScryptParameters;
  salt: Buffer;
  hash: Buffer;
}

function parse(encoded: string): ParsedHash | null {
  const match = ENCODED.exec(encoded);
  if (!match) return null;
  const parameters = { logN: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (parameters.logN < 10 || parameters.logN > LOG_N_MAX || parameters.r < 1 || parameters.r > R_MAX || parameters.p < 1 || parameters.p > P_MAX) {
    return null;
  }
  const hash = Buffer.from(match[5]!, 'base64url');
  return hash.length === HASH_BYTES ? { parameters, salt: Buffer.from(match[4]!, 'base64url'), hash } : null;
}

const DUMMY_SALT = randomBytes(SALT_BYTES);

// True when the password matches the stored hash; the comparison takes the same time wherever they differ. A
// stored value that is not a hash of ours (a fixture, a business account) never matches, after the same work.
export async function verifyPassword(encoded: string, password: string, logN = SCRYPT_LOG_N_DEFAULT): Promise<boolean> {
  const parsed = parse(encoded);
  if (!parsed) {
    await verifyNothing(password, logN);
    return false;
  }
  const candidate = await derive(password, parsed.salt, parsed.parameters);
  return timingSafeEqual(candidate, parsed.hash);
}

// The work of one verification at the cost new hashes get, for a login that names no account: the answer's
// timing does not tell whether the account exists.
export async function verifyNothing(password: string, logN = SCRYPT_LOG_N_DEFAULT): Promise<void> {
  await derive(password, DUMMY_SALT, parametersOf(logN));
}
