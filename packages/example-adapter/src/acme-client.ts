import { request, type Dispatcher } from 'undici';
import { interactionLog, redactForLog, type AdapterLog, type LogKind } from '@payrail/adapter-kit';
import type { AcmeSettings } from './acme-settings.ts';
import { acmeChecks, type AcmeError } from './acme-types.ts';
import { METADATA_CONTEXT_KEY } from './mapping.ts';

// The HTTP integration with Acme Pay: one request, its interaction log (spec 2.9), and what its answer means.
//   ok       Acme answered 2xx with the resource we asked for
//   refused  Acme answered 4xx: it did nothing (bad request, bad key, unknown id)
//   unknown  no usable answer (timeout, network, 5xx, a body we cannot read): the operation may or may not
//            have happened, so nothing final may be concluded from it

export type AcmeCallResult<Resource> =
  | { kind: 'ok'; resource: Resource; log: AdapterLog }
  | { kind: 'refused'; statusCode: number; error: AcmeError['error'] | null; log: AdapterLog }
  | { kind: 'unknown'; reason: string; log: AdapterLog };

export interface AcmeCall<Resource> {
  method: 'GET' | 'POST';
  path: string; // with its query, e.g. /v2/charges?reference=…
  body?: object;
  idempotencyKey?: string;
  logKind: LogKind;
  check: { Check(value: unknown): value is Resource };
}

export interface AcmeTransport {
  timeoutMs: number;
  signal: AbortSignal;
  dispatcher?: Dispatcher;
}

const RESPONSE_BYTES_MAX = 256 * 1024;
const SEALED = '[sealed]';

export async function callAcme<Resource>(settings: AcmeSettings, call: AcmeCall<Resource>, transport: AcmeTransport): Promise<AcmeCallResult<Resource>> {
  const url = `${settings.baseUrl}${call.path}`;
  const startedAt = performance.now();
  const bodyText = call.body === undefined ? undefined : JSON.stringify(call.body);
  const headers: Record<string, string> = { authorization: `Bearer ${settings.apiKey}`, accept: 'application/json' };
  if (bodyText !== undefined) headers['content-type'] = 'application/json';
  if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
  const logOf = (status: number, response: unknown) =>
    interactionLog({ kind: call.logKind, url, body: call.body ?? null, status, response, startedAt, redact: redactAcmeLog });
  const timeout = AbortSignal.timeout(transport.timeoutMs);
  try {
    const response = await request(url, {
      method: call.method,
      headers,
      ...(bodyText === undefined ? {} : { body: bodyText }),
      signal: AbortSignal.any([timeout, transport.signal]),
      headersTimeout: transport.timeoutMs,
      bodyTimeout: transport.timeoutMs,
      ...(transport.dispatcher === undefined ? {} : { dispatcher: transport.dispatcher }),
    });
    const text = await readLimited(response.body);
    const parsed = parseJson(text);
    const log = logOf(response.statusCode, parsed ?? text);
    if (response.statusCode >= 200 && response.statusCode < 300) {
      if (call.check.Check(parsed)) return { kind: 'ok', resource: parsed, log };
      return { kind: 'unknown', reason: `Acme Pay answered HTTP ${response.statusCode} with a body this adapter cannot read`, log };
    }
    if (response.statusCode >= 400 && response.statusCode < 500) {
      return { kind: 'refused', statusCode: response.statusCode, error: acmeChecks.error.Check(parsed) ? parsed.error : null, log };
    }
    return { kind: 'unknown', reason: `Acme Pay answered HTTP ${response.statusCode}`, log };
  } catch (error) {
    const reason = timeout.aborted
      ? `Acme Pay did not answer within ${transport.timeoutMs} ms`
      : transport.signal.aborted
        ? 'the call to Acme Pay was abandoned'
        : `Acme Pay is unreachable: ${(error as Error).message}`;
    return { kind: 'unknown', reason, log: logOf(0, { error: reason }) };
  }
}

// Card numbers masked and the CVC removed (the kit's redaction), the sealed context hidden even as ciphertext.
export function redactAcmeLog(value: unknown): unknown {
  return redactForLog(hideSealedContext(value, 0));
}

function hideSealedContext(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => hideSealedContext(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === METADATA_CONTEXT_KEY ? SEALED : hideSealedContext(inner, depth + 1)]));
}

async function readLimited(body: AsyncIterable<Buffer> & { dump(): Promise<void> }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > RESPONSE_BYTES_MAX) {
      await body.dump().catch(() => {});
      throw new Error(`Acme Pay's answer is larger than ${RESPONSE_BYTES_MAX} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
