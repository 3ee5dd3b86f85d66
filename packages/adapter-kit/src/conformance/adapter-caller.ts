import { signBody } from '../signature.ts';

// One call to the adapter as Payrail makes it: POST <url>/<method>, JSON, X-SIGNATURE over the exact bytes.

const RESPONSE_BYTES_MAX = 1024 * 1024;

export interface AdapterCallResult {
  statusCode: number | null; // null: no HTTP answer (network error or timeout)
  contentType: string | null;
  bodyText: string;
  json: unknown; // undefined when the body is not JSON
  elapsedMs: number;
  timedOut: boolean;
  networkError: string | null;
}

export interface CallOptions {
  signature?: 'valid' | 'wrong' | 'none';
  contentType?: string;
}

export async function callAdapter(
  baseUrl: string,
  method: string,
  bodyText: string,
  signKey: string,
  timeoutMs: number,
  options: CallOptions = {},
): Promise<AdapterCallResult> {
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json', accept: 'application/json' };
  const signature = options.signature ?? 'valid';
  if (signature === 'valid') headers['x-signature'] = signBody(signKey, bodyText);
  if (signature === 'wrong') headers['x-signature'] = signBody(`${signKey}-not-this-key`, bodyText);
  const startedAt = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/${method}`, { method: 'POST', headers, body: bodyText, signal, redirect: 'manual' });
    const text = await readLimited(response);
    return {
      statusCode: response.status,
      contentType: response.headers.get('content-type'),
      bodyText: text,
      json: parseJson(text),
      elapsedMs: performance.now() - startedAt,
      timedOut: false,
      networkError: null,
    };
  } catch (error) {
    const timedOut = signal.aborted;
    return {
      statusCode: null,
      contentType: null,
      bodyText: '',
      json: undefined,
      elapsedMs: performance.now() - startedAt,
      timedOut,
      networkError: timedOut ? null : describe(error),
    };
  }
}

async function readLimited(response: Response): Promise<string> {
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > RESPONSE_BYTES_MAX) throw new Error(`the answer is larger than ${RESPONSE_BYTES_MAX} bytes`);
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

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
