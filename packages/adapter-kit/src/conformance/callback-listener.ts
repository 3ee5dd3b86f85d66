import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// The suite's stand-in for Payrail: callback_url and processing_url point here, on the paths Payrail gives out
// (src/payments/domain/public-urls.ts), and every callback is kept as received for the checks to verify.

const CALLBACK_BODY_BYTES_MAX = 256 * 1024;
const CALLBACKS_KEPT_MAX = 1000;
const WAIT_POLL_MS = 20;
const CALLBACK_PATH_PREFIX = '/callbacks/v2/gateway_callbacks/'; // Payrail's, and the only one it serves

export interface ReceivedCallback {
  path: string;
  authorization: string | undefined;
  bodyText: string;
}

export interface CallbackListener {
  origin: string; // as the adapter is told to reach it
  callbackUrl(token: string): string;
  processingUrl(token: string): string;
  received: ReceivedCallback[];
  waitFor(predicate: (callback: ReceivedCallback) => boolean, timeoutMs: number): Promise<ReceivedCallback | null>;
  close(): Promise<void>;
}

export async function startCallbackListener(host: string, port: number, publicOrigin?: string): Promise<CallbackListener> {
  const received: ReceivedCallback[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= CALLBACK_BODY_BYTES_MAX) chunks.push(chunk);
    });
    request.on('end', () => {
      const path = request.url ?? '/';
      // Every POST is kept, on whatever path: a callback the adapter sent elsewhere than callback_url is reported.
      if (request.method === 'POST' && received.length < CALLBACKS_KEPT_MAX) {
        received.push({ path, authorization: request.headers.authorization, bodyText: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>conformance</title><p>returned');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const bound = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  const origin = (publicOrigin ?? bound).replace(/\/+$/, '');
  return {
    origin,
    callbackUrl: (token) => `${origin}${CALLBACK_PATH_PREFIX}${encodeURIComponent(token)}`,
    processingUrl: (token) => `${origin}/checkout/${encodeURIComponent(token)}/return`,
    received,
    async waitFor(predicate, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(predicate);
        if (found !== undefined) return found;
        if (Date.now() >= deadline) return null;
        await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
