import { describe, expect, it } from 'vitest';
import { ISO_3166_ALPHA2 } from '../../../src/platform/lib/countries.ts';

describe('ISO_3166_ALPHA2', () => {
  it('holds the 249 officially assigned codes, each two upper-case letters', () => {
    expect(ISO_3166_ALPHA2.size).toBe(249);
    for (const code of ISO_3166_ALPHA2) expect(code).toMatch(/^[A-Z]{2}$/);
  });

  it.each(['US', 'GB', 'DE', 'JP', 'CN', 'AX', 'BQ', 'CW', 'SS', 'SX', 'PS', 'AQ', 'UM', 'ZW'])('contains %s', (code) => {
    expect(ISO_3166_ALPHA2.has(code)).toBe(true);
  });

  it.each(['XK', 'UK', 'EU', 'AN', 'YU', 'ZZ', 'us', 'USA'])('does not contain %s', (code) => {
    expect(ISO_3166_ALPHA2.has(code)).toBe(false);
  });
});
