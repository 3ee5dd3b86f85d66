// spec 2.10: settings.assets carries files (certificates, keys) in base64. Decoded here for the adapter: above
// all the client identity it presents to its provider (mutual TLS) and the CAs it trusts for the provider.

const ASSET_FILES_MAX = 20;
const ASSET_BASE64_CHARS_MAX = 1_000_000; // as Payrail accepts them
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export class AssetError extends Error {
  readonly file: string;

  constructor(file: string, message: string) {
    super(`settings.assets.${file} ${message}`);
    this.file = file;
  }
}

// Every asset file decoded, by name. Throws AssetError naming the first file that is not base64.
export function decodeAssets(settings: { assets?: Readonly<Record<string, string>> | undefined }): Map<string, Buffer> {
  const entries = Object.entries(settings.assets ?? {});
  if (entries.length > ASSET_FILES_MAX) throw new AssetError('*', `holds ${entries.length} files, at most ${ASSET_FILES_MAX}`);
  const decoded = new Map<string, Buffer>();
  for (const [file, text] of entries) {
    if (typeof text !== 'string' || text.length > ASSET_BASE64_CHARS_MAX)
      throw new AssetError(file, `must be base64 of at most ${ASSET_BASE64_CHARS_MAX} characters`);
    const compact = text.replace(/\s+/g, '');
    if (!BASE64.test(compact) || compact.length % 4 === 1) throw new AssetError(file, 'is not base64');
    decoded.set(file, Buffer.from(compact, 'base64'));
  }
  return decoded;
}

export interface ProviderTls {
  cert?: Buffer; // PEM: the adapter's client certificate (chain)
  key?: Buffer; // PEM: its private key
  ca?: Buffer[]; // PEM: CAs the provider's server certificate may chain to, beside the system roots
}

export interface ProviderTlsFiles {
  cert: string;
  key: string;
  ca: string;
}

// The asset names the example adapter reads; an adapter may name its own.
export const PROVIDER_TLS_FILES: ProviderTlsFiles = { cert: 'provider_client_cert.pem', key: 'provider_client_key.pem', ca: 'provider_ca.pem' };

// TLS options for the adapter's connections to its provider (e.g. undici's Agent `connect`, node:https), or null
// when the assets carry none of the files. A certificate without its key, or a key without its certificate, is
// refused: half an identity would fail at the provider's handshake, far from its cause.
export function providerTlsOf(
  settings: { assets?: Readonly<Record<string, string>> | undefined },
  files: ProviderTlsFiles = PROVIDER_TLS_FILES,
): ProviderTls | null {
  const assets = decodeAssets(settings);
  const cert = assets.get(files.cert);
  const key = assets.get(files.key);
  const ca = assets.get(files.ca);
  if ((cert === undefined) !== (key === undefined)) {
    const missing = cert === undefined ? files.cert : files.key;
    throw new AssetError(missing, `is missing: ${files.cert} and ${files.key} go together`);
  }
  if (cert === undefined && ca === undefined) return null;
  return { ...(cert === undefined ? {} : { cert }), ...(key === undefined ? {} : { key }), ...(ca === undefined ? {} : { ca: [ca] }) };
}
