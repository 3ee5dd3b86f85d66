import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { cardPayment } from '../../support/production-gateway.ts';
import { testCertificate } from '../../support/certificates.ts';

const engines = await testEngines();

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

interface MutualTlsAdapter {
  url: string;
  clientNames: string[]; // the common name of each client certificate a request came with
  bodies: any[];
  close(): Promise<void>;
}

// An adapter on HTTPS that takes only clients presenting a certificate it trusts (mutual TLS), answering approved.
async function startMutualTlsAdapter(server: { cert: string; key: string }, trustedClient: string): Promise<MutualTlsAdapter> {
  const clientNames: string[] = [];
  const bodies: any[] = [];
  const https: Server = createServer({ ...server, requestCert: true, rejectUnauthorized: true, ca: [trustedClient] }, (request, response) => {
    const peer = (request.socket as TLSSocket).getPeerCertificate();
    clientNames.push(String(peer.subject?.CN ?? ''));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ result: true, status: 'approved', gateway_token: 'gw-mtls', logs: [] }));
    });
  });
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  const address = https.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `https://127.0.0.1:${address.port}`,
    clientNames,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        https.closeAllConnections();
        https.close(() => resolve());
      }),
  };
}

// spec 2.10 assets: base64 files checked when the gateway is saved, sealed with its settings, handed to its adapter,
// and, for client_cert.pem + client_key.pem (+ server_ca.pem), Payrail's own client identity towards that adapter.
describe.each(engines)('gateway assets and mutual TLS on %s', (engine) => {
  let harness: Harness;
  let serverTls: { cert: string; key: string };
  let clientTls: { cert: string; key: string };
  let otherClient: { cert: string; key: string };
  let adapter: MutualTlsAdapter;

  beforeAll(async () => {
    harness = await startHarness(engine);
    [serverTls, clientTls, otherClient] = await Promise.all([
      testCertificate('127.0.0.1', 'serverAuth'),
      testCertificate('payrail-client', 'clientAuth'),
      testCertificate('someone-else', 'clientAuth'),
    ]);
    adapter = await startMutualTlsAdapter(serverTls, clientTls.cert);
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
  });

  const settingsWith = (assets: Record<string, string>, fullLink = adapter.url) => ({
    api_key: 'ak_live_assets',
    sign_key: randomBytes(16).toString('hex'),
    sandbox: false,
    gateway_settings: { processing_method: 'http_requests', full_link: fullLink, methods: { pay: { response_timeout: 3, final_waiting_seconds: 60 } } },
    assets,
  });
  const addGateway = (merchantId: number, settings: Record<string, unknown>) =>
    harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchantId}/gateways`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
      payload: { alias: `tls-${randomBytes(3).toString('hex')}`, environment: 'production', settings },
    });

  it.each([
    ['not base64', () => ({ 'provider.pem': 'this is not base64!' }), 'settings.assets.provider.pem', 'must be base64'],
    ['base64 of no certificate', () => ({ 'notes.txt': base64('just some text') }), 'settings.assets.notes.txt', 'neither a PEM file nor a DER'],
    [
      'a PEM block that does not parse',
      () => ({ 'provider.pem': base64('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n') }),
      'settings.assets.provider.pem',
      'does not parse',
    ],
    ['a client certificate without its key', () => ({ 'client_cert.pem': base64(clientTls.cert) }), 'settings.assets.client_key.pem', 'is required with'],
    [
      'a key that is not the certificate’s',
      () => ({ 'client_cert.pem': base64(clientTls.cert), 'client_key.pem': base64(otherClient.key) }),
      'settings.assets.client_key.pem',
      'is not the private key',
    ],
  ])('refuses %s with 422 naming the file', async (_case, assets, field, words) => {
    const merchant = await harness.createMerchant('Asset shop');
    const refused = await addGateway(merchant.id, settingsWith(assets()));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0]).toMatchObject({ code: 'invalid_field', field });
    expect(refused.json().errors[0].message).toContain(words);
  });

  it('accepts PEM and DER certificates and keys, masks them to operators and hands them to the adapter', async () => {
    const merchant = await harness.createMerchant('mTLS shop');
    const der = Buffer.from(serverTls.cert.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64').toString('base64');
    const assets = {
      'client_cert.pem': base64(clientTls.cert),
      'client_key.pem': base64(clientTls.key),
      'server_ca.pem': base64(serverTls.cert),
      'provider_root.der': der,
    };
    const saved = await addGateway(merchant.id, settingsWith(assets));
    expect(saved.statusCode).toBe(200);
    expect(JSON.stringify(saved.json())).not.toContain(assets['client_key.pem']);

    const created = await harness.merchantRequest(merchant.productionKey, { method: 'POST', url: '/api/v1/payments', payload: cardPayment('mtls-1') });
    expect(created.statusCode).toBe(200);
    expect(created.json().payment.status).toBe('approved');
    expect(adapter.clientNames.at(-1)).toBe('payrail-client');
    expect(adapter.bodies.at(-1).settings.assets).toEqual(assets); // spec 2.10: handed to the adapter as given
  });

  it('cannot reach the adapter without the client certificate: the payment stays pending', async () => {
    const merchant = await harness.createMerchant('No identity shop');
    const saved = await addGateway(merchant.id, settingsWith({ 'server_ca.pem': base64(serverTls.cert) }));
    expect(saved.statusCode).toBe(200);
    const seen = adapter.clientNames.length;
    const created = await harness.merchantRequest(merchant.productionKey, { method: 'POST', url: '/api/v1/payments', payload: cardPayment('mtls-2') });
    expect(created.statusCode).toBe(200);
    expect(created.json().payment.status).toBe('pending');
    expect(adapter.clientNames.length).toBe(seen);
  });
});
