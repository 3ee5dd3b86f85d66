import { createServer, type Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_TLS_FILES } from '@payrail/adapter-kit';
import { acmeDispatcherOf } from '../src/provider-agents.ts';
import { testCertificate } from '../../../test/support/certificates.ts';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('the example adapter calls its provider with that identity (mutual TLS)', () => {
  let provider: Server;
  let url: string;
  const clientNames: string[] = [];
  let assets: Record<string, string>;

  beforeAll(async () => {
    const server = await testCertificate('127.0.0.1', 'serverAuth');
    const client = await testCertificate('example-adapter', 'clientAuth');
    provider = createServer({ ...server, requestCert: true, rejectUnauthorized: true, ca: [client.cert] }, (incoming, response) => {
      clientNames.push(String((incoming.socket as TLSSocket).getPeerCertificate().subject?.CN ?? ''));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const address = provider.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    url = `https://127.0.0.1:${address.port}/v2/charges`;
    assets = {
      [PROVIDER_TLS_FILES.cert]: base64(client.cert),
      [PROVIDER_TLS_FILES.key]: base64(client.key),
      [PROVIDER_TLS_FILES.ca]: base64(server.cert),
    };
  });
  afterAll(async () => new Promise<void>((resolve) => provider?.close(() => resolve())));

  it('presents the client certificate from the assets, one pool per identity', async () => {
    const route = acmeDispatcherOf({ assets }, undefined);
    if (!('dispatcher' in route) || route.dispatcher === undefined) throw new Error(`no dispatcher: ${JSON.stringify(route)}`);
    const answer = await request(url, { dispatcher: route.dispatcher });
    expect(answer.statusCode).toBe(200);
    await answer.body.text();
    expect(clientNames).toEqual(['example-adapter']);
    expect(acmeDispatcherOf({ assets: { ...assets } }, undefined)).toEqual(route); // the same pool again
  });

  it('keeps the default pool without assets, and refuses half an identity before calling anyone', () => {
    expect(acmeDispatcherOf({}, undefined)).toEqual({ dispatcher: undefined });
    const half = acmeDispatcherOf({ assets: { [PROVIDER_TLS_FILES.cert]: assets[PROVIDER_TLS_FILES.cert] as string } }, undefined);
    expect(half).toEqual({ problem: expect.stringContaining(PROVIDER_TLS_FILES.key) });
  });
});
