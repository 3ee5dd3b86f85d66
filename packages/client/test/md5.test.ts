import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { md5Hex } from '../src/md5.ts';
import { verifyLegacySignature } from '../src/index.ts';

// The client's own MD5 (WebCrypto has none) against node:crypto's, and its legacy signature against the rule of
// spec (the server's legacySignature: length-prefixed values, empty optional ones left out, then the key). Packages
// may not import the service: client-notifications.test.ts checks the same against notifications a real Payrail sent.
function referenceSignature(fields: Record<string, string | number | null>, merchantKey: string): string {
  const optional = [fields['token'], fields['type'], fields['status'], fields['extraReturnParam'], fields['orderNumber']].filter(
    (value) => value !== null && value !== '',
  );
  const always = [fields['amount'], fields['currency'], fields['gatewayAmount'], fields['gatewayCurrency']];
  const signed = [...optional, ...always].map((value) => `${String(value).length}${String(value)}`).join('');
  return createHash('md5')
    .update(signed + merchantKey, 'utf8')
    .digest('hex');
}
describe('the pure TypeScript MD5 of @payrail/client', () => {
  it('digests the RFC 1321 test suite', () => {
    const suite: [string, string][] = [
      ['', 'd41d8cd98f00b204e9800998ecf8427e'],
      ['a', '0cc175b9c0f1b6a831c399e269772661'],
      ['abc', '900150983cd24fb0d6963f7d28e17f72'],
      ['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
      ['abcdefghijklmnopqrstuvwxyz', 'c3fcd3d76192e4007dfb496cca67e13b'],
      ['12345678901234567890123456789012345678901234567890123456789012345678901234567890', '57edf4a22be3c955ac49da2e2107b67a'],
    ];
    for (const [text, digest] of suite) expect(md5Hex(new TextEncoder().encode(text))).toBe(digest);
  });

  it('agrees with node:crypto on random inputs of every length around the 64-byte blocks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 300 }), (bytes) => {
        expect(md5Hex(bytes)).toBe(createHash('md5').update(bytes).digest('hex'));
      }),
      { numRuns: 500 },
    );
  });
});

describe('verifyLegacySignature', () => {
  const optionalText = fc.oneof(fc.constant(null), fc.constant(''), fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }));
  const amount = fc.oneof(fc.integer({ min: 1, max: 10 ** 12 }), fc.integer({ min: 1, max: 10 ** 6 }).map(String));

  it('accepts exactly what the rule signs, whatever the values (empty ones left out, Unicode included)', () => {
    fc.assert(
      fc.property(
        fc.record({
          token: fc.string({ minLength: 1, maxLength: 32 }),
          type: fc.constantFrom('pay', 'payout', 'refund', 'dispute', 'conflict'),
          status: fc.constantFrom('approved', 'declined', 'refunded'),
          extraReturnParam: optionalText,
          orderNumber: optionalText,
          amount,
          currency: fc.constantFrom('USD', 'EUR', 'USDT'),
          gatewayAmount: amount,
          gatewayCurrency: fc.constantFrom('USD', 'RUB'),
        }),
        fc.string({ minLength: 1, maxLength: 60 }),
        (fields, merchantKey) => {
          const notification = { ...fields, signature: referenceSignature(fields, merchantKey) };
          expect(verifyLegacySignature(notification, merchantKey)).toBe(true);
          expect(verifyLegacySignature({ ...notification, currency: `${fields.currency}X` }, merchantKey)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});
