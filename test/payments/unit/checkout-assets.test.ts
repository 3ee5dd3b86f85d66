import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCheckoutAssetName, readCheckoutAsset, type CheckoutAssetName } from '../../../src/payments/routes/checkout/assets.ts';
import { FAVICON_SVG } from '../../../src/platform/lib/favicon.ts';

describe('readCheckoutAsset', () => {
  it.each([
    ['checkout.js', 'text/javascript; charset=utf-8'],
    ['checkout.css', 'text/css; charset=utf-8'],
  ] as const)('serves %s as %s with a quoted content etag', (name, contentType) => {
    const asset = readCheckoutAsset(name);
    expect(asset.contentType).toBe(contentType);
    expect(asset.body.equals(readFileSync(new URL(`../../../src/payments/routes/checkout/assets/${name}`, import.meta.url)))).toBe(true);
    expect(asset.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
  });

  it('serves the favicon as SVG from the source the sandbox 3-D Secure page inlines too', () => {
    const asset = readCheckoutAsset('favicon.svg');
    expect(asset.contentType).toBe('image/svg+xml');
    expect(asset.body.toString('utf8')).toBe(FAVICON_SVG);
    expect(asset.body.toString('utf8')).not.toMatch(/<script|\son[a-z]+=|href=/i);
  });

  it('reads each file once and gives the same asset afterwards', () => {
    expect(readCheckoutAsset('checkout.js')).toBe(readCheckoutAsset('checkout.js'));
    expect(readCheckoutAsset('checkout.js').etag).not.toBe(readCheckoutAsset('checkout.css').etag);
  });

  it.each(['../assets.ts', 'checkout.js/../../html.ts', 'other.js', 'constructor', ''])(
    'refuses the name %j, so a route parameter cannot reach another file',
    (name) => {
      expect(isCheckoutAssetName(name)).toBe(false);
      expect(() => readCheckoutAsset(name as CheckoutAssetName)).toThrow(/unknown checkout asset/);
    },
  );

  it('ships a strict-mode script without inline-handler tricks or eval', () => {
    const script = readCheckoutAsset('checkout.js').body.toString('utf8');
    expect(script).toMatch(/^(?:\/\/[^\n]*\n)*'use strict';/);
    expect(script).not.toMatch(/\beval\(|new Function|innerHTML|document\.write/);
  });
});
