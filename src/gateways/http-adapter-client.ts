import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { Agent, errors as undiciErrors, request } from 'undici';
import type { AdapterAnswer } from '../domain/adapter-outcome.ts';
import type { AdapterMethod, GatewaySettings } from '../contract/adapter-contract.ts';
import { secureContextTrusting } from '../lib/trusted-ca.ts';

const ADAPTER_CONNECTIONS_PER_ORIGIN_MAX = 64;
const ADAPTER_RESPONSE_BYTES_MAX = 1024 * 1024;

interface AdapterCall {
  answer: AdapterAnswer;
  url: string;
  durationS: number;
}

export interface AdapterClient {
  call(settings: GatewaySettings, method: AdapterMethod, body: object, timeoutMs: number): Promise<AdapterCall>;
  close(): Promise<void>;
}

// Each sign_key's KeyObject is made once (createHmac would make one per call from raw bytes, about 0.05 ms);
// bounded, as gateways come and go.
const SIGN_KEYS_KEPT_MAX = 256;
const signKeyObjects = new Map<string, KeyObject>();

function signKeyObjectOf(signKey: string): KeyObject {
  let keyObject = signKeyObjects.get(signKey);
  if (!keyObject) {
    if (signKeyObjects.size >= SIGN_KEYS_KEPT_MAX) signKeyObjects.clear();
    keyObject = createSecretKey(Buffer.from(signKey, 'utf8'));
    signKeyObjects.set(signKey, keyObject);
  }
  return keyObject;
}

// spec 5.5: X-SIGNATURE is the lowercase hex HMAC-SHA512 of the exact body bytes, keyed with sign_key.
function adapterSignature(signKey: string, bodyText: string): string {
  return createHmac('sha512', signKeyObjectOf(signKey)).update(bodyText, 'utf8').digest('hex');
}

// One keep-alive pool per adapter origin (bounded), shared by every payment; the adapter keeps no state.
export function createAdapterClient(options: { extraCa?: readonly string[] } = {}): AdapterClient {
  const dispatcher = new Agent({
    connections: ADAPTER_CONNECTIONS_PER_ORIGIN_MAX,
    connect: options.extraCa?.length ? { secureContext: secureContextTrusting(options.extraCa) } : {},
  });
  return {
    async call(settings, method, body, timeoutMs) {
      const fullLink = settings.gateway_settings.full_link;
      if (fullLink === undefined) return { answer: { kind: 'network_error', message: 'the gateway has no full_link' }, url: '', durationS: 0 };
      const url = `${fullLink.replace(/\/$/, '')}/${method}`;
      const bodyText = JSON.stringify(body);
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (settings.validate_signature) headers['x-signature'] = adapterSignature(settings.sign_key, bodyText);
      const startedAt = performance.now();
      const answer = await send(url, bodyText, headers, timeoutMs);
      return { answer, url, durationS: (performance.now() - startedAt) / 1000 };
    },
    close: () => dispatcher.close(),
  };

  async function send(url: string, bodyText: string, headers: Record<string, string>, timeoutMs: number): Promise<AdapterAnswer> {
    try {
      const response = await request(url, {
        method: 'POST',
        body: bodyText,
        headers,
        dispatcher,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await readLimited(response.body);
      if (response.statusCode >= 400) return { kind: 'http_error', statusCode: response.statusCode };
      try {
        return { kind: 'response', body: JSON.parse(text) as unknown };
      } catch {
        return { kind: 'invalid_json' };
      }
    } catch (error) {
      if (isTimeout(error)) return { kind: 'timeout' };
      return { kind: 'network_error', message: (error as Error).message };
    }
  }
}

async function readLimited(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > ADAPTER_RESPONSE_BYTES_MAX) throw new Error('adapter response is larger than 1 MiB');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  return (
    name === 'TimeoutError' || name === 'AbortError' || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError
  );
}
