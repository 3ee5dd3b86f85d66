import { generate } from 'selfsigned';

const DAY_MS = 86_400_000;

// A self-signed P-256 certificate valid for a day either side of now: a server's for 127.0.0.1, or a client's.
export async function testCertificate(commonName: string, usage: 'serverAuth' | 'clientAuth'): Promise<{ cert: string; key: string }> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - DAY_MS),
    notAfterDate: new Date(Date.now() + DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', [usage]: true },
      ...(usage === 'serverAuth' ? [{ name: 'subjectAltName' as const, altNames: [{ type: 7 as const, ip: '127.0.0.1' }] }] : []),
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
