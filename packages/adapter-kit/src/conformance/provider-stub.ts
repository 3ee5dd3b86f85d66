import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// The suite's stand-in for the adapter's provider, for the few calls whose settings carry its URL (the option
// providerUrlSetting): it records every request that reaches it, and either fails it (HTTP 503) or never answers
// it (held until the stub closes or STALL_MS_MAX). What reached it is what the adapter did, whatever it answered.

const STALL_MS_MAX = 120_000;
const UNAVAILABLE_BODY = '{"error":"conformance provider stub: service unavailable"}';

export type ProviderStubMode = 'unavailable' | 'stall';

export interface ProviderStub {
  origin: string;
  mode: ProviderStubMode;
  requestCount(): number; // requests received since the stub started
  close(): Promise<void>;
}

export async function startProviderStub(host: string): Promise<ProviderStub> {
  let count = 0;
  const stalled = new Set<ServerResponse>();
  const stub: ProviderStub = {
    origin: '',
    mode: 'unavailable',
    requestCount: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of stalled) answerUnavailable(response);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    count += 1;
    request.resume(); // the body is not read: that the request came is the observation
    if (stub.mode === 'unavailable') {
      answerUnavailable(response);
      return;
    }
    stalled.add(response);
    const timer = setTimeout(() => answerUnavailable(response), STALL_MS_MAX);
    response.on('close', () => {
      clearTimeout(timer);
      stalled.delete(response);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  stub.origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return stub;
}

function answerUnavailable(response: ServerResponse): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(503, { 'content-type': 'application/json' }).end(UNAVAILABLE_BODY);
}

// The settings block with the value at `path` (dotted, e.g. gateway_settings.acme_base_url) set to the stub's origin.
export function settingsWithProviderUrl<Settings extends object>(settings: Settings, path: string, url: string): Settings {
  const copy = structuredClone(settings) as Record<string, unknown>;
  const keys = path.split('.');
  let target = copy;
  for (const key of keys.slice(0, -1)) {
    const next = target[key];
    const child = typeof next === 'object' && next !== null && !Array.isArray(next) ? (next as Record<string, unknown>) : {};
    target[key] = child;
    target = child;
  }
  target[keys.at(-1) ?? path] = url;
  return copy as Settings;
}
