// The Host-to-Host scenario: a create request carrying a sandbox card that the built-in sandbox adapter
// approves at once, and the merchant's end of it, a local receiver for the notifications Payrail sends.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CleanupStack } from './cleanup.ts';
import type { Workload } from './measure.ts';

const RECEIVER_PATH = '/payrail-notifications';
const RECEIVER_BODY_BYTES_MAX = 64 * 1024; // a notification is well under 1 KiB; anything larger is cut off

function h2hPaymentBody(callbackUrl: string): string {
  return JSON.stringify({
    product: 'Bench order',
    amount: 1000,
    currency: 'USD',
    callbackUrl,
    orderNumber: 'bench-h2h',
    card: { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Bench Holder', cvv: '123' }, // sandbox: approved at once
    customer: { email: 'bench@example.com', ip: '203.0.113.10' },
  });
}

// True only for a success envelope whose payment ended approved; an error envelope (non-2xx) never is.
function isApprovedPaymentBody(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { success?: unknown; payment?: { status?: unknown } };
    return parsed.success === true && parsed.payment?.status === 'approved';
  } catch {
    return false;
  }
}

export function h2hWorkload(receiver: NotificationReceiver): Workload {
  return { scenario: 'h2h', body: h2hPaymentBody(receiver.url), expectedBody: isApprovedPaymentBody, notificationCount: receiver.receivedCount };
}

export interface NotificationReceiver {
  url: string; // the callbackUrl to give Payrail
  receivedCount(): number; // notifications answered so far
  close(): Promise<void>;
}

// Plain HTTP on 127.0.0.1, answering 200 to every POST so that no delivery is retried. Sandbox payments
// may notify private addresses (only production ones must reach the public internet).
export async function startNotificationReceiver(cleanup: CleanupStack): Promise<NotificationReceiver> {
  let received = 0;
  const server = createServer((request, response) => {
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > RECEIVER_BODY_BYTES_MAX) request.destroy();
    });
    request.on('end', () => {
      const isNotification = request.method === 'POST' && request.url === RECEIVER_PATH;
      if (isNotification) received += 1;
      response.writeHead(isNotification ? 200 : 404, { 'content-type': 'text/plain' }).end(isNotification ? 'ok' : 'not found');
    });
  });
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  const close = cleanup.defer('stop the notification receiver', closeServer);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${RECEIVER_PATH}`, receivedCount: () => received, close };
}
