import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callbackRequestOf, verifySignature } from '@payrail/adapter-kit';

// An adapter written by hand, without the kit's scaffold, as a stranger would: a real HTTP server, conformant by
// default in the unusual ways the contract allows (log items with kind only, `logs: []` on refusals, no /payout or
// /refund), each quirk switching on one fault for the conformance suite to catch. Its provider is the URL at
// settings.gateway_settings.provider_url when one is given (the suite's provider stub), otherwise itself.

export const QUIRKY_CARDS = { approve: '4242424242424242', decline: '4000000000000002', callback: '4000000000001018' } as const;

export interface Quirks {
  processUnsigned?: boolean; // calls the provider before checking X-SIGNATURE (and then refuses, knowing nothing after)
  amountFactor?: number; // /status answers the amount times this (100: a minor/major-unit mix-up)
  providerFailure?: 'code-408' | 'result-false' | 'approved'; // its answer when the provider answers 5xx
  ignoreResponseTimeout?: boolean; // waits for the provider as long as it takes
  newTransactionOnRepeat?: boolean; // a repeated /pay with the same token makes a second transaction
  redirectUrl?: string; // approving /pay answers pending with this redirect_request.url
  crashWithoutCard?: boolean; // HTTP 500 for a /pay without card data
  crashWithoutGatewayToken?: boolean; // HTTP 500 for a /status without gateway_token
  currencies?: readonly string[]; // the others are refused with result false
  callbackTo?: 'callback_url' | 'legacy'; // legacy: <origin>/callback/<token>, not the callback_url given
}

export interface QuirkyAdapter {
  url: string;
  close(): Promise<void>;
}

// What it reads of a call (pay and status); anything without payment.token and settings is refused first.
interface CallBody {
  payment: { token: string; gateway_amount: number; gateway_currency: string; merchant_private_key: string; gateway_token?: string };
  params: { pan?: string };
  settings: { gateway_settings?: { provider_url?: string; methods?: Record<string, { response_timeout?: number }> } };
  callback_url: string;
}
interface Transaction {
  gatewayToken: string;
  status: 'approved' | 'declined' | 'pending';
  amount: number;
  currency: string;
}

const CALLBACK_DELAY_MS = 50;
const RESPONSE_TIMEOUT_MARGIN_MS = 500;

export async function startQuirkyAdapter(signKey: string, quirks: Quirks = {}): Promise<QuirkyAdapter> {
  const transactions = new Map<string, Transaction>();
  const log = (kind: string) => [{ kind, duration: 0.001 }]; // neither request nor status: the spec requires neither
  const refusal = (error: string) => ({ result: false, error, logs: [] });

  async function callProvider(settings: Partial<CallBody['settings']> | undefined, method: string): Promise<'ok' | 'failed' | 'timeout' | 'none'> {
    const providerUrl = settings?.gateway_settings?.provider_url;
    if (typeof providerUrl !== 'string') return 'none';
    const responseTimeoutS = settings?.gateway_settings?.methods?.[method]?.response_timeout ?? 15;
    const signal = quirks.ignoreResponseTimeout ? undefined : AbortSignal.timeout(responseTimeoutS * 1000 - RESPONSE_TIMEOUT_MARGIN_MS);
    try {
      const response = await fetch(`${providerUrl}/charges`, { method: 'POST', body: '{}', ...(signal ? { signal } : {}) });
      await response.arrayBuffer();
      return response.status >= 500 ? 'failed' : 'ok';
    } catch {
      return 'timeout';
    }
  }

  async function pay(body: CallBody): Promise<{ statusCode: number; answer: unknown }> {
    const { payment, params, settings } = body;
    if (quirks.crashWithoutCard && params.pan === undefined) return { statusCode: 500, answer: { message: 'pan is undefined' } };
    if (quirks.currencies && !quirks.currencies.includes(payment.gateway_currency)) return { statusCode: 200, answer: refusal('currency not offered') };
    const provider = await callProvider(settings, 'pay');
    if (provider === 'timeout') return { statusCode: 200, answer: { result: false, code: 408, error: 'the provider did not answer', logs: log('pay') } };
    if (provider === 'failed') {
      const failure = quirks.providerFailure ?? 'code-408';
      if (failure === 'approved') return { statusCode: 200, answer: { result: true, status: 'approved', gateway_token: 'gw_x', logs: log('pay') } };
      return {
        statusCode: 200,
        answer: { result: false, error: 'the provider answered 503', ...(failure === 'code-408' ? { code: 408 } : {}), logs: log('pay') },
      };
    }
    const known = transactions.get(payment.token);
    if (known && !quirks.newTransactionOnRepeat) return { statusCode: 200, answer: answerOf(known) };
    const pan = params.pan as string | undefined;
    const status = pan === QUIRKY_CARDS.decline ? 'declined' : pan === QUIRKY_CARDS.callback ? 'pending' : 'approved';
    const transaction: Transaction = {
      gatewayToken: `gw_${randomBytes(6).toString('hex')}`,
      status,
      amount: payment.gateway_amount,
      currency: payment.gateway_currency,
    };
    transactions.set(payment.token, transaction);
    if (status === 'pending') setTimeout(() => void sendCallback(body, transaction), CALLBACK_DELAY_MS);
    if (quirks.redirectUrl && status === 'approved') {
      return { statusCode: 200, answer: { ...answerOf({ ...transaction, status: 'pending' }), redirect_request: { url: quirks.redirectUrl, type: 'get' } } };
    }
    return { statusCode: 200, answer: answerOf(transaction) };
  }

  function answerOf(transaction: Transaction) {
    const { gatewayToken, status, amount, currency } = transaction;
    return {
      result: true,
      status,
      gateway_token: gatewayToken,
      amount,
      currency,
      ...(status === 'declined' ? { details: 'Do not honor' } : {}),
      logs: log('pay'),
    };
  }

  async function sendCallback(body: CallBody, transaction: Transaction): Promise<void> {
    transaction.status = 'approved';
    const claims = { status: 'approved', amount: transaction.amount, currency: transaction.currency, gateway_token: transaction.gatewayToken };
    const callback = await callbackRequestOf(signKey, body.payment.merchant_private_key, claims); // async: it signs a JWT
    const url = quirks.callbackTo === 'legacy' ? `${new URL(body.callback_url).origin}/callback/${body.payment.token}` : body.callback_url;
    await fetch(url, { method: 'POST', headers: { authorization: callback.authorization, 'content-type': 'application/json' }, body: callback.bodyText });
  }

  function status(body: CallBody): { statusCode: number; answer: unknown } {
    if (quirks.crashWithoutGatewayToken && body.payment.gateway_token === undefined) return { statusCode: 500, answer: { message: 'no gateway_token' } };
    const known = transactions.get(body.payment.token);
    if (!known) return { statusCode: 200, answer: refusal('unknown transaction') };
    return { statusCode: 200, answer: { ...answerOf(known), amount: known.amount * (quirks.amountFactor ?? 1), logs: log('status') } };
  }

  async function handle(method: string, bodyText: string, signature: string | undefined): Promise<{ statusCode: number; answer: unknown }> {
    if (method !== 'pay' && method !== 'status') return { statusCode: 404, answer: { message: `Route POST:/${method} not found` } };
    let body: Partial<CallBody>;
    try {
      body = JSON.parse(bodyText) as Partial<CallBody>;
    } catch {
      return { statusCode: 200, answer: refusal('the body is not JSON') };
    }
    const signed = verifySignature(signKey, bodyText, signature);
    if (!signed && quirks.processUnsigned) await callProvider(body.settings, method);
    if (!signed) return { statusCode: 200, answer: refusal('invalid X-SIGNATURE') };
    if (typeof body.payment?.token !== 'string' || typeof body.settings !== 'object')
      return { statusCode: 200, answer: refusal('payment.token and settings are required') };
    return method === 'pay' ? pay(body as CallBody) : status(body as CallBody);
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const signature = request.headers['x-signature'];
      const { statusCode, answer } = await handle(
        (request.url ?? '/').slice(1),
        Buffer.concat(chunks).toString('utf8'),
        typeof signature === 'string' ? signature : undefined,
      );
      if (!response.destroyed) response.writeHead(statusCode, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
