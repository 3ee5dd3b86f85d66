import { request, type Dispatcher } from 'undici';
import { callbackRequestOf, type AdapterLog } from '@payrail/adapter-kit';
import type { CallbackStatus } from './mapping.ts';
import type { CallbackContext } from './sealed-context.ts';

// spec 5.6 / 6.2: POST <callback_url> with Authorization: Bearer <JWT HS512 under sign_key>, the merchant key
// AES-256-CBC encrypted in the `secure` claim. One attempt: the adapter keeps no queue, so a failed delivery is
// answered to Acme with a 502 and Acme's own webhook retries carry it again.

const CALLBACK_TIMEOUT_MS = 10_000;
const CALLBACK_EXCERPT_CHARS_MAX = 300;

export type CallbackDelivery =
  | { outcome: 'delivered'; statusCode: number }
  | { outcome: 'refused'; statusCode: number; excerpt: string } // Payrail answered 4xx: sending it again will not help
  | { outcome: 'failed'; reason: string }; // network error, timeout or 5xx: worth another try

export async function sendPayrailCallback(
  context: CallbackContext,
  claims: CallbackStatus & { logs: AdapterLog[] },
  dispatcher: Dispatcher | undefined,
): Promise<CallbackDelivery> {
  const { authorization, bodyText } = await callbackRequestOf(context.signKey, context.merchantPrivateKey, claims);
  try {
    const response = await request(context.callbackUrl, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
      body: bodyText,
      signal: AbortSignal.timeout(CALLBACK_TIMEOUT_MS),
      headersTimeout: CALLBACK_TIMEOUT_MS,
      bodyTimeout: CALLBACK_TIMEOUT_MS,
      ...(dispatcher === undefined ? {} : { dispatcher }),
    });
    const excerpt = await excerptOf(response.body);
    if (response.statusCode >= 200 && response.statusCode < 300) return { outcome: 'delivered', statusCode: response.statusCode };
    if (response.statusCode >= 400 && response.statusCode < 500) return { outcome: 'refused', statusCode: response.statusCode, excerpt };
    return { outcome: 'failed', reason: `Payrail answered HTTP ${response.statusCode}` };
  } catch (error) {
    return { outcome: 'failed', reason: `Payrail is unreachable: ${(error as Error).message}` };
  }
}

// The start of Payrail's answer, for the log; the rest is discarded unread.
async function excerptOf(body: AsyncIterable<Buffer> & { dump(): Promise<void> }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= CALLBACK_EXCERPT_CHARS_MAX) break;
  }
  await body.dump().catch(() => {});
  return Buffer.concat(chunks).toString('utf8').slice(0, CALLBACK_EXCERPT_CHARS_MAX);
}
