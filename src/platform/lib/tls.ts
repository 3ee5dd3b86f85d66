import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDataDir } from './data-dir.ts';

export interface TlsMaterial {
  cert: string;
  key: string;
  fingerprint256: string;
  generated: boolean;
  selfSigned: boolean;
}

const SELF_SIGNED_VALIDITY_DAYS = 825;

export function selfSignedCertPath(dataDir: string): string {
  return join(dataDir, 'tls', 'cert.pem');
}

// The operator's certificate when given, else a self-signed one for localhost kept in the data folder.
export async function loadTls(dataDir: string, certPath: string | null, keyPath: string | null): Promise<TlsMaterial> {
  if (certPath && keyPath) {
    const cert = readFileSync(certPath, 'utf8');
    return { cert, key: readFileSync(keyPath, 'utf8'), fingerprint256: fingerprint(cert), generated: false, selfSigned: false };
  }
  ensureDataDir(dataDir);
  const folder = join(dataDir, 'tls');
  const generatedCertPath = selfSignedCertPath(dataDir);
  const generatedKeyPath = join(folder, 'key.pem');
  if (existsSync(generatedCertPath) && existsSync(generatedKeyPath)) {
    const cert = readFileSync(generatedCertPath, 'utf8');
    return { cert, key: readFileSync(generatedKeyPath, 'utf8'), fingerprint256: fingerprint(cert), generated: false, selfSigned: true };
  }
  const notBeforeDate = new Date();
  const notAfterDate = new Date(notBeforeDate.getTime() + SELF_SIGNED_VALIDITY_DAYS * 86_400_000);
  // Loaded only to make a certificate: it (and the X.509 library under it) was a sixth of a CLI command's start-up.
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  writeFileSync(generatedKeyPath, pems.private, { mode: 0o600 });
  writeFileSync(generatedCertPath, pems.cert, { mode: 0o600 }); // the data folder is its owner's alone
  return { cert: pems.cert, key: pems.private, fingerprint256: fingerprint(pems.cert), generated: true, selfSigned: true };
}

function fingerprint(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256;
}
