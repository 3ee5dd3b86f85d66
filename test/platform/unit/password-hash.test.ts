import { describe, expect, it } from 'vitest';
import { hashPassword, verifyNothing, verifyPassword } from '../../../src/platform/lib/password-hash.ts';

// Cheap parameters (N = 2^10) keep these fast; the format and the checks are those of the default cost.
const LOG_N = 10;

describe('password hashing (scrypt)', () => {
  it('verifies the right password and refuses any other', async () => {
    const stored = await hashPassword('correct horse battery', LOG_N);
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(stored, 'correct horse batterY')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
  });

  it('writes a self-describing string with a fresh salt each time', async () => {
    const first = await hashPassword('correct horse battery', LOG_N);
    const second = await hashPassword('correct horse battery', LOG_N);
    expect(first).toMatch(/^scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('correct');
  });

  it('uses N = 2^15 unless told otherwise', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored.startsWith('scrypt$ln=15,r=8,p=1$')).toBe(true);
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true);
  });

  it('treats composed and decomposed accents as one password (NFC)', async () => {
    const stored = await hashPassword('caf\u00e9 au lait 42', LOG_N);
    expect(await verifyPassword(stored, 'cafe\u0301 au lait 42')).toBe(true);
  });

  it.each([
    ['not a hash', 'anything at all'],
    ['', 'anything at all'],
    ['scrypt$ln=30,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'cost out of bounds'],
    ['scrypt$ln=10,r=99,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'block size out of bounds'],
    ['scrypt$ln=10,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAA', 'hash too short'],
  ])('never matches a stored value that is not one of its hashes (%s)', async (stored) => {
    expect(await verifyPassword(stored, 'anything at all', LOG_N)).toBe(false);
  });

  it('does the work of a verification for a login that names no account', async () => {
    await expect(verifyNothing('anything at all', LOG_N)).resolves.toBeUndefined();
  });
});
