import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import type { GatewaySettings } from '../contract/gateway-settings.ts';

// spec 2.10 assets: files (certificates, keys) in base64, kept sealed with the gateway's settings and sent to its
// adapter in settings.assets. Three names mean something to Payrail itself when the gateway's full_link is https:
// client_cert.pem and client_key.pem are the client identity it presents to that adapter (mutual TLS), and
// server_ca.pem adds the CAs the adapter's own certificate may chain to.
const CLIENT_CERT_ASSET = 'client_cert.pem';
const CLIENT_KEY_ASSET = 'client_key.pem';
const SERVER_CA_ASSET = 'server_ca.pem';
const TLS_ASSETS = [CLIENT_CERT_ASSET, CLIENT_KEY_ASSET, SERVER_CA_ASSET] as const;

const BASE64_PATTERN = /^[A-Za-z0-9+/]*={0,2}$/;
const PEM_BLOCK_PATTERN = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g;
const PRIVATE_KEY_LABELS: ReadonlySet<string> = new Set(['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY']);
const OPAQUE_LABELS: ReadonlySet<string> = new Set(['ENCRYPTED PRIVATE KEY']); // the provider's passphrase opens it, not ours
const DER_KEY_TYPES = ['pkcs8', 'pkcs1', 'sec1'] as const;
const CONTAINER_EXTENSIONS = ['.p12', '.pfx', '.jks']; // opened by the adapter with its own password: only base64 is checked

export interface AssetProblem {
  field: string; // settings.assets.<file name>
  message: string;
}

type Decoded = { pem: PemBlock[] } | { der: Buffer };

interface PemBlock {
  label: string;
  text: string;
}

// The first asset that is not base64 of a certificate or key we can read, or a TLS identity that does not hold
// together (a certificate without its key, a key that is not the certificate's).
export function assetsProblem(assets: Readonly<Record<string, string>> | undefined): AssetProblem | null {
  if (assets === undefined) return null;
  for (const [name, base64] of Object.entries(assets)) {
    const problem = assetProblem(name, base64);
    if (problem !== null) return { field: `settings.assets.${name}`, message: problem };
  }
  return identityProblem(assets);
}

function assetProblem(name: string, base64: string): string | null {
  const compact = base64.replace(/\s+/g, '');
  // Padding may be left out (RFC 4648 3.2); a length no base64 text can have may not.
  const padded = compact.length % 4 === 0 || !compact.endsWith('=');
  if (compact === '' || compact.length % 4 === 1 || !padded || !BASE64_PATTERN.test(compact)) return 'must be base64 (RFC 4648)';
  const bytes = Buffer.from(compact, 'base64');
  if (CONTAINER_EXTENSIONS.some((extension) => name.toLowerCase().endsWith(extension))) return null;
  const decoded = decode(bytes);
  if ('pem' in decoded) {
    if (decoded.pem.length === 0) return 'decodes to text without a PEM block (-----BEGIN …-----)';
    for (const block of decoded.pem) {
      const problem = pemBlockProblem(block);
      if (problem !== null) return problem;
    }
    return null;
  }
  return derReadable(decoded.der) ? null : 'decodes to neither a PEM file nor a DER certificate or private key';
}

function decode(bytes: Buffer): Decoded {
  const text = bytes.toString('latin1');
  if (!text.includes('-----BEGIN ')) return { der: bytes };
  return { pem: [...text.matchAll(PEM_BLOCK_PATTERN)].map((match) => ({ label: match[1]!, text: match[0] })) };
}

function pemBlockProblem(block: PemBlock): string | null {
  try {
    if (block.label === 'CERTIFICATE') new X509Certificate(block.text);
    else if (PRIVATE_KEY_LABELS.has(block.label)) createPrivateKey(block.text);
    else if (block.label === 'PUBLIC KEY') createPublicKey(block.text);
    else if (!OPAQUE_LABELS.has(block.label)) return `holds a PEM block "${block.label}" that is no certificate or key`;
    return null;
  } catch {
    return `holds a PEM block "${block.label}" that does not parse`;
  }
}

function derReadable(der: Buffer): boolean {
  try {
    new X509Certificate(der);
    return true;
  } catch {}
  for (const type of DER_KEY_TYPES) {
    try {
      createPrivateKey({ key: der, format: 'der', type });
      return true;
    } catch {}
  }
  return false;
}

function identityProblem(assets: Readonly<Record<string, string>>): AssetProblem | null {
  const cert = pemTextOf(assets[CLIENT_CERT_ASSET]);
  const key = pemTextOf(assets[CLIENT_KEY_ASSET]);
  if (cert === null && key === null) return null;
  if (cert === null || key === null) {
    const missing = cert === null ? CLIENT_CERT_ASSET : CLIENT_KEY_ASSET;
    return {
      field: `settings.assets.${missing}`,
      message: `is required with ${cert === null ? CLIENT_KEY_ASSET : CLIENT_CERT_ASSET} (the mutual TLS identity)`,
    };
  }
  const certificate = firstBlock(cert, (label) => label === 'CERTIFICATE');
  const privateKey = firstBlock(key, (label) => PRIVATE_KEY_LABELS.has(label));
  if (certificate === null) return { field: `settings.assets.${CLIENT_CERT_ASSET}`, message: 'must hold a PEM certificate' };
  if (privateKey === null) return { field: `settings.assets.${CLIENT_KEY_ASSET}`, message: 'must hold an unencrypted PEM private key' };
  if (!new X509Certificate(certificate).checkPrivateKey(createPrivateKey(privateKey) as KeyObject)) {
    return { field: `settings.assets.${CLIENT_KEY_ASSET}`, message: `is not the private key of ${CLIENT_CERT_ASSET}` };
  }
  return null;
}

function pemTextOf(base64: string | undefined): string | null {
  return base64 === undefined ? null : Buffer.from(base64.replace(/\s+/g, ''), 'base64').toString('latin1');
}

function firstBlock(pemText: string, wanted: (label: string) => boolean): string | null {
  for (const match of pemText.matchAll(PEM_BLOCK_PATTERN)) if (wanted(match[1]!)) return match[0];
  return null;
}

export interface GatewayTls {
  digest: string; // names the identity and trust: one connection pool per digest
  connect: { secureContext: SecureContext };
}

// A gateway's own TLS context when it calls its adapter over https with a client identity or CAs of its own;
// null: the shared pool serves it. extraCa: the CAs every adapter call already trusts (PAYRAIL_EXTRA_CA, tests).
export function gatewayTlsOf(settings: GatewaySettings, extraCa: readonly string[] = []): GatewayTls | null {
  const fullLink = settings.gateway_settings.full_link;
  const assets = settings.assets;
  if (assets === undefined || fullLink === undefined || !fullLink.startsWith('https:')) return null;
  const used = TLS_ASSETS.map((name) => assets[name] ?? '');
  if (used.every((content) => content === '')) return null;
  const digest = createHash('sha256')
    .update(JSON.stringify([used, extraCa]))
    .digest('hex');
  let built = contexts.get(digest);
  if (built === undefined) {
    if (contexts.size >= GATEWAY_TLS_CONTEXTS_MAX) contexts.clear();
    built = { digest, connect: { secureContext: buildContext(assets, extraCa) } };
    contexts.set(digest, built);
  }
  return built;
}

const GATEWAY_TLS_CONTEXTS_MAX = 256;
const contexts = new Map<string, GatewayTls>();

function buildContext(assets: Readonly<Record<string, string>>, extraCa: readonly string[]): SecureContext {
  const cert = pemTextOf(assets[CLIENT_CERT_ASSET]);
  const key = pemTextOf(assets[CLIENT_KEY_ASSET]);
  const serverCa = pemTextOf(assets[SERVER_CA_ASSET]);
  return createSecureContext({
    ca: [...rootCertificates, ...extraCa, ...(serverCa === null ? [] : [serverCa])],
    ...(cert !== null && key !== null ? { cert, key } : {}),
  });
}
