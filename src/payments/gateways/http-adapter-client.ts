import { errorCode, errorMessage } from '../../platform/lib/type-guards.ts';
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { Agent, errors as undiciErrors, request } from 'undici';
import type { AdapterAnswer } from '../domain/adapter-outcome.ts';
import type { AdapterMethod, AdapterRequestOf, GatewaySettings } from '../contract/adapter-contract.ts';
import { secureContextTrusting } from '../../platform/lib/trusted-ca.ts';
import { createRabbitTransport } from './rabbit-adapter-client.ts';
import type { BrokerLinkOptions } from './rabbit-broker-link.ts';
import { gatewayTlsOf } from './client-tls.ts';
import type { ServiceMetrics } from '../../platform/lib/service-metrics.ts';

const ADAPTER_CONNECTIONS_PER_ORIGIN_MAX = 64;
const ADAPTER_RESPONSE_BYTES_MAX = 1024 * 1024;
const GATEWAY_POOLS_MAX = 64; // gateways calling their adapter with TLS material of their own (client-tls.ts)

interface AdapterCall {
  answer: AdapterAnswer;
  url: string;
  durationS: number;
}

export interface AdapterClient {
  // The body is the method's request as the adapter kit defines it (settings: the gateway's, narrowed); gatewayId
  // labels the call's metrics (null: the built-in sandbox gateway, which has no row).
  call<Method extends AdapterMethod>(
    settings: GatewaySettings,
    method: Method,
    body: AdapterRequestOf<Method>,
    timeoutMs: number,
    gatewayId?: number | null,
  ): Promise<AdapterCall>;
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

// The one way out to adapters, chosen per call by the gateway's processing_method: HTTP (one keep-alive pool per
// adapter origin, bounded) or RabbitMQ (rabbit-adapter-client.ts), with the same body and X-SIGNATURE either way.
// Shared by every payment; the adapter keeps no state.
export function createAdapterClient(options: { extraCa?: readonly string[]; rabbit?: BrokerLinkOptions; metrics?: ServiceMetrics } = {}): AdapterClient {
  const rabbit = createRabbitTransport(options.rabbit);
  const dispatcher = new Agent({
    connections: ADAPTER_CONNECTIONS_PER_ORIGIN_MAX,
    connect: options.extraCa?.length ? { secureContext: secureContextTrusting(options.extraCa) } : {},
  });
  // A gateway with a client certificate or CAs of its own in its assets (mutual TLS) gets a pool of its own.
  const gatewayDispatchers = new Map<string, Agent>();
  const dispatcherFor = (settings: GatewaySettings): Agent => {
    const tls = gatewayTlsOf(settings, options.extraCa);
    if (tls === null) return dispatcher;
    let agent = gatewayDispatchers.get(tls.digest);
    if (agent === undefined) {
      const [oldestDigest, oldest] = gatewayDispatchers.entries().next().value ?? [];
      if (gatewayDispatchers.size >= GATEWAY_POOLS_MAX && oldestDigest !== undefined) {
        gatewayDispatchers.delete(oldestDigest);
        void oldest?.close(); // lets its requests in flight finish
      }
      agent = new Agent({ connections: ADAPTER_CONNECTIONS_PER_ORIGIN_MAX, connect: tls.connect });
      gatewayDispatchers.set(tls.digest, agent);
    }
    return agent;
  };
  // Every adapter call of the service passes here, whatever its transport: timed and counted once.
  const observe = (settings: GatewaySettings, method: AdapterMethod, gatewayId: number | null, call: AdapterCall): AdapterCall => {
    const transport = settings.gateway_settings.processing_method;
    options.metrics?.adapterCall({ gatewayId, method, transport }, call.durationS, call.answer.kind === 'response' ? null : call.answer.kind);
    return call;
  };
  return {
    async call(settings, method, body, timeoutMs, gatewayId = null) {
      return observe(settings, method, gatewayId, await exchange(settings, method, JSON.stringify(body), timeoutMs));
    },
    close: async () => {
      await Promise.all([dispatcher.close(), rabbit.close(), ...[...gatewayDispatchers.values()].map((agent) => agent.close())]);
    },
  };

  async function exchange(settings: GatewaySettings, method: AdapterMethod, bodyText: string, timeoutMs: number): Promise<AdapterCall> {
    const signature = settings.validate_signature ? adapterSignature(settings.sign_key, bodyText) : null;
    const startedAt = performance.now();
    if (settings.gateway_settings.processing_method === 'rabbit') {
      const sent = await rabbit.send(settings.gateway_settings, method, bodyText, signature, timeoutMs);
      return { ...sent, durationS: (performance.now() - startedAt) / 1000 };
    }
    const fullLink = settings.gateway_settings.full_link;
    if (fullLink === undefined) return { answer: { kind: 'network_error', message: 'the gateway has no full_link' }, url: '', durationS: 0 };
    const url = `${fullLink.replace(/\/$/, '')}/${method}`;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (signature !== null) headers['x-signature'] = signature;
    const answer = await send(url, bodyText, headers, timeoutMs, dispatcherFor(settings));
    return { answer, url, durationS: (performance.now() - startedAt) / 1000 };
  }

  async function send(url: string, bodyText: string, headers: Record<string, string>, timeoutMs: number, through: Agent): Promise<AdapterAnswer> {
    try {
      const response = await request(url, {
        method: 'POST',
        body: bodyText,
        headers,
        dispatcher: through,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await readLimited(response.body);
      if (response.statusCode >= 400) return { kind: 'http_error', statusCode: response.statusCode };
      try {
        const body: unknown = JSON.parse(text);
        return { kind: 'response', body };
      } catch {
        return { kind: 'invalid_json' };
      }
    } catch (error) {
      if (isTimeout(error)) return { kind: 'timeout' };
      const code = errorCodeOf(error);
      return { kind: 'network_error', message: errorMessage(error), ...(code === undefined ? {} : { code }) };
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

// The system error code (ECONNREFUSED, ENOTFOUND, …) of a failed request, or of the error that caused it.
function errorCodeOf(error: unknown): string | undefined {
  const own = errorCode(error);
  if (own !== undefined && own !== '') return own;
  const cause = error instanceof Error ? errorCode(error.cause) : undefined;
  return cause !== undefined && cause !== '' ? cause : undefined;
}

function isTimeout(error: unknown): boolean {
  const name = error instanceof Error ? error.name : undefined;
  return (
    name === 'TimeoutError' || name === 'AbortError' || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError
  );
}
