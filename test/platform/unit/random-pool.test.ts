import { describe, expect, it } from 'vitest';
import { randomBase64Url, randomBuffer, randomHex } from '../../../src/platform/lib/random-pool.ts';

const POOL_BYTES = 4096;

describe('the pooled random source (platform/lib/random-pool.ts)', () => {
  it('hands out each draw once, across many refills of the pool', () => {
    const seen = new Set<string>();
    const draws = (POOL_BYTES / 16) * 25; // 25 refills
    for (let index = 0; index < draws; index++) seen.add(randomHex(16));
    expect(seen.size).toBe(draws);
  });

  it('draws the length asked for in every encoding, including draws that straddle a refill', () => {
    for (let byteCount = 1; byteCount <= 300; byteCount += 7) {
      expect(randomHex(byteCount)).toMatch(new RegExp(`^[0-9a-f]{${byteCount * 2}}$`));
      expect(Buffer.from(randomBase64Url(byteCount), 'base64url')).toHaveLength(byteCount);
      expect(randomBuffer(byteCount)).toHaveLength(byteCount);
    }
  });

  // A draw read after its bytes were wiped, or a pool never refilled, would hand out zeros or repeats: the bytes
  // of 64 KiB of draws must look uniform (chi-square over 256 values, 255 degrees of freedom; 400 is far past p = 1e-7).
  it('hands out bytes that look uniform, not wiped or repeated ones', () => {
    const counts = new Array<number>(256).fill(0);
    const drawn = 64 * 1024;
    for (let taken = 0; taken < drawn; taken += 12) for (const byte of randomBuffer(12)) counts[byte]! += 1;
    const total = counts.reduce((sum, count) => sum + count, 0);
    const expected = total / 256;
    const chiSquare = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(400);
  });

  it('gives the caller a buffer of its own: later draws and refills leave it as it was', () => {
    const kept = randomBuffer(32);
    const copy = Buffer.from(kept);
    for (let taken = 0; taken < POOL_BYTES * 3; taken += 32) randomBuffer(32);
    expect(kept.equals(copy)).toBe(true);
    expect(kept.equals(Buffer.alloc(32))).toBe(false);
  });

  it('refuses a count that is not a positive integer', () => {
    for (const count of [0, -1, 1.5, Number.NaN]) expect(() => randomHex(count)).toThrow(RangeError);
  });
});
