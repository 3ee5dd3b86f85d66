import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { Agent, request } from 'undici';

// Sits between Payrail and the sandbox adapter (the sandbox gateway's full_link points here) and counts every adapter
// call by operation: the method with the payment token. A /pay, /payout, confirm_request or decline_request sent twice
// for one payment is a duplicate. A /refund is keyed by its own refund.token: Payrail re-sends the same one as the
// refund's status lookup (the contract makes a repeat report, never refund twice), so the refunds of a payment are
// counted as distinct refund tokens, which the checks compare with the refunds the merchant asked for.
// /status and the customer's steps are counted but may repeat.

const ONCE_PER_PAYMENT = new Set(['pay', 'payout', 'confirm_request', 'decline_request']);
const BODY_BYTES_MAX = 2 * 1024 * 1024;
const UPSTREAM_TIMEOUT_MS = 30_000;

interface AdapterCall {
  method: string;
  paymentToken: string;
  refundToken: string | null;
  at: number;
}

export interface CountingProxy {
  port: number;
  calls: AdapterCall[];
  byMethod(): Record<string, number>;
  duplicates(): { operation: string; count: number }[];
  refundTokensByPayment(): Map<string, Set<string>>;
  close(): Promise<void>;
}

export async function startCountingProxy(tls: { cert: string; key: string }, upstreamOrigin: string): Promise<CountingProxy> {
  const calls: AdapterCall[] = [];
  const agent = new Agent({ connect: { ca: tls.cert }, connections: 64 });

  const handle = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of incoming as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > BODY_BYTES_MAX) throw new Error('body too large');
      chunks.push(chunk);
    }
    const body = Buffer.concat(chunks);
    const call = adapterCallOf(body);
    if (call !== null) calls.push(call);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name)) headers[name] = value;
    }
    try {
      const answer = await request(`${upstreamOrigin}${incoming.url ?? '/'}`, {
        method: (incoming.method ?? 'GET') as 'GET',
        headers,
        body: body.length > 0 ? body : null,
        dispatcher: agent,
        headersTimeout: UPSTREAM_TIMEOUT_MS,
        bodyTimeout: UPSTREAM_TIMEOUT_MS,
      });
      const answerBody = Buffer.from(await answer.body.arrayBuffer());
      const answerHeaders: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !['connection', 'transfer-encoding', 'content-length', 'keep-alive'].includes(name)) answerHeaders[name] = value;
      }
      outgoing.writeHead(answer.statusCode, answerHeaders).end(answerBody);
    } catch {
      // The adapter process is down (killed): a bad gateway, as a real proxy would answer.
      outgoing.writeHead(502, { 'content-type': 'text/plain' }).end('adapter unavailable');
    }
  };

  const server = createServer({ cert: tls.cert, key: tls.key }, (incoming, outgoing) => {
    handle(incoming, outgoing).catch(() => {
      if (!outgoing.headersSent) outgoing.writeHead(400).end();
      else outgoing.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    calls,
    byMethod: () => {
      const counts: Record<string, number> = {};
      for (const call of calls) counts[call.method] = (counts[call.method] ?? 0) + 1;
      return counts;
    },
    duplicates: () => {
      const counts = new Map<string, number>();
      for (const call of calls) {
        const operation = `${call.method} ${call.paymentToken}`;
        if (ONCE_PER_PAYMENT.has(call.method)) counts.set(operation, (counts.get(operation) ?? 0) + 1);
      }
      return [...counts].filter(([, count]) => count > 1).map(([operation, count]) => ({ operation, count }));
    },
    refundTokensByPayment: () => {
      const tokens = new Map<string, Set<string>>();
      for (const call of calls) {
        if (call.refundToken === null) continue;
        const known = tokens.get(call.paymentToken) ?? new Set<string>();
        known.add(call.refundToken);
        tokens.set(call.paymentToken, known);
      }
      return tokens;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}

function adapterCallOf(body: Buffer): AdapterCall | null {
  let parsed: { method_name?: unknown; payment?: { token?: unknown }; refund?: { token?: unknown } };
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return null; // a form post of the 3-D Secure page, not an adapter call
  }
  if (typeof parsed?.method_name !== 'string') return null;
  const method = parsed.method_name;
  const paymentToken = typeof parsed.payment?.token === 'string' ? parsed.payment.token : '?';
  const refundToken = method === 'refund' && typeof parsed.refund?.token === 'string' ? parsed.refund.token : null;
  return { method, paymentToken, refundToken, at: Date.now() };
}
