import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { FAVICON_SVG } from '../../../platform/lib/favicon.ts';

export type CheckoutAssetName = 'checkout.js' | 'checkout.css' | 'favicon.svg';

export interface CheckoutAsset {
  body: Buffer;
  contentType: string;
  etag: string; // strong validator: quoted, from the content
}

const CONTENT_TYPES: Readonly<Record<CheckoutAssetName, string>> = {
  'checkout.js': 'text/javascript; charset=utf-8',
  'checkout.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
};

const assetCache = new Map<CheckoutAssetName, CheckoutAsset>();

// For the route's path parameter: only these names are ever served, and only the files among them are read.
export function isCheckoutAssetName(name: string): name is CheckoutAssetName {
  return Object.hasOwn(CONTENT_TYPES, name);
}

// Read once per process: the files ship with the code and do not change while it runs.
export function readCheckoutAsset(name: CheckoutAssetName): CheckoutAsset {
  if (!isCheckoutAssetName(name)) throw new Error(`unknown checkout asset "${String(name)}"`);
  const cached = assetCache.get(name);
  if (cached !== undefined) return cached;
  // The favicon's source is shared with the sandbox 3-D Secure page, which may not import the checkout.
  const body = name === 'favicon.svg' ? Buffer.from(FAVICON_SVG, 'utf8') : readFileSync(new URL(`./assets/${name}`, import.meta.url));
  const digest = createHash('sha256').update(body).digest('base64url');
  const asset: CheckoutAsset = { body, contentType: CONTENT_TYPES[name], etag: `"${digest}"` };
  assetCache.set(name, asset);
  return asset;
}
