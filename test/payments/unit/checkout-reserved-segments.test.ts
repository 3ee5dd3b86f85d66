import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_RESERVED_SEGMENTS } from '../../../src/payments/domain/selector-urls.ts';

// GET /checkout/<token>/<alias> opens the page of one gateway: an alias equal to one of the checkout's own
// segments would be shadowed by that page. Every such segment the checkout routes declare must be reserved.
const checkoutFolder = fileURLToPath(new URL('../../../src/payments/routes/checkout/', import.meta.url));

function declaredSegments(): string[] {
  const segments = new Set<string>();
  for (const file of readdirSync(checkoutFolder).filter((name) => name.endsWith('.ts'))) {
    const source = readFileSync(`${checkoutFolder}${file}`, 'utf8');
    for (const match of source.matchAll(/'\/checkout\/:token\/([a-z_-]+)/g)) segments.add(match[1] as string);
  }
  return [...segments].sort();
}

describe('aliases a gateway may not take', () => {
  it('include every segment the checkout routes declare after the token', () => {
    const declared = declaredSegments();
    expect(declared.length).toBeGreaterThan(5);
    for (const segment of declared) expect(CHECKOUT_RESERVED_SEGMENTS, segment).toContain(segment);
  });
});
