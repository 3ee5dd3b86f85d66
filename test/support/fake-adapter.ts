import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { request, type Dispatcher } from 'undici';
import type { CallbackClaims } from '../../src/payments/contract/adapter-contract.ts';
import { encryptMerchantKey, signCallbackJwt } from '@payrail/adapter-kit';

// A real gateway adapter on 127.0.0.1 (spec 2.8–2.9, section 4) whose every answer the test scripts.

const REQUEST_BODY_BYTES_MAX = 1024 * 1024;

interface AdapterRequest {
  method: string; // the last path segment: pay, status, payout, …
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: any; // the parsed JSON, or undefined when the body is not JSON
  receivedAt: number; // ms since the epoch
}

export type AdapterReply =
  | { kind: 'json'; body: unknown }
  | { kind: 'sleep'; ms: number; then: AdapterReply }
  | { kind: 'http_status'; statusCode: number; text: string }
  | { kind: 'invalid_json' }
  | { kind: 'close_socket' };

// A fixed reply, or one computed (possibly later) from the request.
type AdapterScript = AdapterReply | ((request: AdapterRequest) => AdapterReply | Promise<AdapterReply>);

export const reply = {
  json: (body: unknown): AdapterReply => ({ kind: 'json', body }),
  sleep: (ms: number, then: AdapterReply): AdapterReply => ({ kind: 'sleep', ms, then }),
  httpStatus: (statusCode: number, text = 'adapter failure'): AdapterReply => ({ kind: 'http_status', statusCode, text }),
  invalidJson: (): AdapterReply => ({ kind: 'invalid_json' }),
  closeSocket: (): AdapterReply => ({ kind: 'close_socket' }),
};

// Bodies in the shape of spec 2.9.
export const adapterAnswer = {
  pending: (gatewayToken: string, extra: Record<string, unknown> = {}) => ({
    result: true,
    status: 'pending',
    gateway_token: gatewayToken,
    logs: [],
    ...extra,
  }),
  approved: (gatewayToken: string, extra: Record<string, unknown> = {}) => ({
    result: true,
    status: 'approved',
    gateway_token: gatewayToken,
    logs: [],
    ...extra,
  }),
  declined: (gatewayToken: string, extra: Record<string, unknown> = {}) => ({
    result: true,
    status: 'declined',
    gateway_token: gatewayToken,
    logs: [],
    ...extra,
  }),
};

export interface ProviderCallback {
  callbackUrl: string; // the callback_url of the /pay request
  signKey: string; // settings.sign_key
  merchantKey: string; // carried encrypted in `secure`
  claims: Omit<CallbackClaims, 'secure'>;
  dispatcher?: Dispatcher; // one that trusts the service's certificate
  tamperSignature?: boolean; // flips a bit of the HS512 signature
}

export interface FakeAdapter {
  url: string; // use as gateway_settings.full_link
  port: number;
  requests: AdapterRequest[];
  // Replies for one method, in order; the last one repeats. Without a script the adapter answers pending.
  respond(method: string, ...scripts: AdapterScript[]): void;
  requestsFor(method: string, paymentToken?: string): AdapterRequest[];
  sendCallback(callback: ProviderCallback): Promise<{ statusCode: number; body: any }>;
  refuseConnections(): Promise<void>; // stops listening and drops open connections: callers get ECONNREFUSED
  acceptConnections(): Promise<void>; // listens again on the same port
  close(): Promise<void>;
}

export interface FakeAdapterOptions {
  // A careless adapter: the card of each /pay request comes back in its answer's logs, under every key and in
  // free text (see cardEchoLogs).
  echoCardInLogs?: boolean;
}

// What a careless adapter logs about the card it was sent: the PAN under `number`, `card_no`, as a key, nested,
// in arrays, as a number and in free text with spaces, dashes and dots; the CVV under `security_code` and in text.
export function cardEchoLogs(pan: string, cvv: string): unknown[] {
  const grouped = (separator: string) => pan.replace(/(\d{4})(?=\d)/g, `$1${separator}`);
  return [
    { request: { number: pan, card_no: grouped(' '), security_code: cvv, expiry: '12/30' }, response: { message: `card ${grouped(' ')} cvv ${cvv}` } },
    {
      [pan]: 'the PAN as a key',
      nested: { deeper: [{ pan_digits: grouped('-') }, `charged ${grouped('.')} / ${cvv}`, cvv] },
      raw: JSON.stringify({ cardNumber: pan, cvc: cvv }),
    },
    { card_as_number: Number(pan), text: `PAN=${pan};CVV=${cvv}` },
  ];
}

export async function startFakeAdapter(options: FakeAdapterOptions = {}): Promise<FakeAdapter> {
  const requests: AdapterRequest[] = [];
  const scripts = new Map<string, AdapterScript[]>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const nextScript = (method: string, paymentToken: string | undefined): AdapterScript => {
    const queue = scripts.get(method);
    if (!queue || queue.length === 0) return reply.json(adapterAnswer.pending(`fake_${paymentToken ?? 'unknown'}`));
    return queue.length > 1 ? queue.shift()! : queue[0]!;
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const send = async (incoming: IncomingMessage, response: ServerResponse, planned: AdapterReply): Promise<void> => {
    if (planned.kind === 'sleep') {
      await sleep(planned.ms);
      if (closed || response.destroyed) return;
      return send(incoming, response, planned.then);
    }
    if (response.destroyed) return;
    switch (planned.kind) {
      case 'json':
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(withCardEcho(incoming, planned.body)));
        return;
      case 'http_status':
        response.writeHead(planned.statusCode, { 'content-type': 'text/plain' }).end(planned.text);
        return;
      case 'invalid_json':
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"result": true, "status": "appro');
        return;
      case 'close_socket':
        incoming.socket.destroy();
        return;
    }
  };

  const lastBodies = new WeakMap<IncomingMessage, any>();
  const withCardEcho = (incoming: IncomingMessage, body: unknown): unknown => {
    const params = lastBodies.get(incoming)?.params;
    if (!options.echoCardInLogs || typeof params?.pan !== 'string' || body === null || typeof body !== 'object') return body;
    const answer = body as { logs?: unknown };
    return { ...answer, logs: [...(Array.isArray(answer.logs) ? answer.logs : []), ...cardEchoLogs(params.pan, String(params.cvv))] };
  };

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > REQUEST_BODY_BYTES_MAX) incoming.destroy();
      else chunks.push(chunk);
    });
    incoming.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const path = incoming.url ?? '/';
      const recorded: AdapterRequest = {
        method: path.split('?')[0]!.split('/').filter(Boolean).at(-1) ?? '',
        path,
        headers: incoming.headers,
        rawBody,
        body: parseJson(rawBody),
        receivedAt: Date.now(),
      };
      requests.push(recorded);
      lastBodies.set(incoming, recorded.body);
      const script = nextScript(recorded.method, recorded.body?.payment?.token);
      Promise.resolve(typeof script === 'function' ? script(recorded) : script)
        .then((planned) => send(incoming, response, planned))
        .catch((error: unknown) => {
          if (!response.headersSent) response.writeHead(599, { 'content-type': 'text/plain' }).end(`fake adapter script failed: ${String(error)}`);
        });
    });
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  await listen(0);
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('fake adapter has no port');
  const port = address.port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    respond(method, ...planned) {
      scripts.set(method, planned);
    },
    requestsFor(method, paymentToken) {
      return requests.filter((item) => item.method === method && (paymentToken === undefined || item.body?.payment?.token === paymentToken));
    },
    sendCallback: postProviderCallback,
    refuseConnections: stopListening,
    acceptConnections: () => listen(port),
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      if (server.listening) await stopListening();
    },
  };
}

// spec 5.6: Authorization: Bearer <HS512 JWT keyed with sign_key>, the merchant key AES-256-CBC encrypted in `secure`.
export async function providerCallbackJwt(callback: Pick<ProviderCallback, 'signKey' | 'merchantKey' | 'claims' | 'tamperSignature'>): Promise<string> {
  const jwt = await signCallbackJwt(callback.signKey, { ...callback.claims, secure: encryptMerchantKey(callback.signKey, callback.merchantKey) });
  if (!callback.tamperSignature) return jwt;
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const bytes = Buffer.from(signature, 'base64url');
  bytes[0] = bytes[0]! ^ 0x01;
  return `${header}.${payload}.${bytes.toString('base64url')}`;
}

async function postProviderCallback(callback: ProviderCallback): Promise<{ statusCode: number; body: any }> {
  const jwt = await providerCallbackJwt(callback);
  const response = await request(callback.callbackUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
    body: '{}',
    ...(callback.dispatcher ? { dispatcher: callback.dispatcher } : {}),
  });
  const text = await response.body.text();
  return { statusCode: response.statusCode, body: parseJson(text) ?? text };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
