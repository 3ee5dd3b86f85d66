import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { request } from 'undici';
import { Payrail, type PayrailOptions } from '../src/index.ts';
import type { ServerHarness } from '../../../test/support/server-harness.ts';

// What the client tests share: a client of a real Payrail over HTTPS (trusting the harness's self-signed
// certificate), and a real HTTP proxy in front of it that can answer in Payrail's place.

export function clientOf(server: ServerHarness, apiKey: string, options: Partial<PayrailOptions> = {}): Payrail {
  // Node's fetch takes an undici dispatcher: the one that trusts the harness's certificate authority.
  const trustingFetch: typeof fetch = (input, init) => fetch(input, { ...init, dispatcher: server.dispatcher } as RequestInit);
  return new Payrail({ apiKey, baseUrl: server.baseUrl, fetch: trustingFetch, ...options });
}

interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

// What the proxy does with a request: answer in Payrail's place, forward it, or forward it and lose the answer.
type Planned =
  | { kind: 'answer'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'forward_then_answer'; status: number; body: unknown }
  | { kind: 'hang'; ms: number };

export interface ForwardingProxy {
  url: string;
  seen: SeenRequest[];
  plan(...steps: Planned[]): void; // for the next requests, in order; then every request is forwarded
  close(): Promise<void>;
}

const FORWARDED_HEADERS = ['authorization', 'content-type', 'idempotency-key', 'accept'];
const ANSWERED_HEADERS = ['content-type', 'x-request-id', 'retry-after', 'idempotent-replayed'];

export async function startProxy(server: ServerHarness): Promise<ForwardingProxy> {
  const seen: SeenRequest[] = [];
  const planned: Planned[] = [];
  const forward = async (method: string, path: string, headers: IncomingHttpHeaders, body: Buffer) => {
    const outgoing: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) if (typeof headers[name] === 'string') outgoing[name] = headers[name];
    const answer = await request(`${server.baseUrl}${path}`, {
      method: method as 'GET',
      dispatcher: server.dispatcher,
      headers: outgoing,
      body: body.length === 0 ? undefined : body,
    });
    return { status: answer.statusCode, headers: answer.headers, body: Buffer.from(await answer.body.arrayBuffer()) };
  };
  const proxy: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      const method = incoming.method ?? 'GET';
      const path = incoming.url ?? '/';
      seen.push({ method, path, headers: incoming.headers });
      const step = planned.shift();
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        outgoing.writeHead(status, { 'content-type': 'application/json', ...headers });
        outgoing.end(JSON.stringify(body));
      };
      if (step?.kind === 'answer') return json(step.status, step.body, step.headers);
      if (step?.kind === 'hang') return void setTimeout(() => json(200, {}), step.ms);
      const answer = await forward(method, path, incoming.headers, Buffer.concat(chunks));
      if (step?.kind === 'forward_then_answer') return json(step.status, step.body);
      const headers: Record<string, string> = {};
      for (const name of ANSWERED_HEADERS) if (typeof answer.headers[name] === 'string') headers[name] = answer.headers[name];
      outgoing.writeHead(answer.status, headers);
      outgoing.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    seen,
    plan: (...steps) => planned.push(...steps),
    close: () => {
      proxy.closeAllConnections();
      return new Promise((resolve) => proxy.close(() => resolve()));
    },
  };
}

export const serverError = (code = 'internal_error') => ({ success: false, result: 1, status: 500, errors: [{ code, message: 'something broke' }] });

export const hostedPayment = (orderNumber: string, callbackUrl = 'https://merchant.example/callback') => ({
  product: 'Order of the client tests',
  amount: 1500,
  currency: 'USD',
  callbackUrl,
  redirectSuccessUrl: 'https://merchant.example/ok',
  redirectFailUrl: 'https://merchant.example/fail',
  orderNumber,
});

export const approvedCard = { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' };
export const customer = { email: 'ada@example.com', ip: '203.0.113.7' };
