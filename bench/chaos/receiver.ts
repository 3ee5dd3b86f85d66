import { createServer } from 'node:http';

// The merchant's notification endpoint: it records every notification it gets and fails half of them (503), so
// Payrail's retries are exercised. HTTP on 127.0.0.1, which the service accepts with PAYRAIL_ALLOW_PRIVATE_CALLBACKS=1.

const BODY_BYTES_MAX = 256 * 1024;

export interface Notification {
  token: string;
  type: string;
  status: string;
  paymentToken: string | null; // refunds name their payment
  eventId: string | null;
  at: number;
  answered: number;
}

export interface Receiver {
  url: string;
  received: Notification[];
  unreadable: number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Notification[] = [];
  let requests = 0;
  const state = { unreadable: 0 };
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_BYTES_MAX) chunks.push(chunk);
    });
    incoming.on('end', () => {
      requests += 1;
      const answered = requests % 2 === 0 ? 503 : 200;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        const eventId = incoming.headers['x-payrail-event-id'];
        received.push({
          token: String(body['token']),
          type: String(body['type']),
          status: String(body['status']),
          paymentToken: typeof body['paymentToken'] === 'string' ? body['paymentToken'] : null,
          eventId: typeof eventId === 'string' ? eventId : null,
          at: Date.now(),
          answered,
        });
      } catch {
        state.unreadable += 1;
      }
      outgoing.writeHead(answered, { 'content-type': 'application/json' }).end(answered === 200 ? '{"ok":true}' : '{"ok":false}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/payrail-notifications`,
    received,
    get unreadable() {
      return state.unreadable;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
