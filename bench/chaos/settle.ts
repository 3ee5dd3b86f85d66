import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from './client.ts';
import type { Cluster } from './cluster.ts';
import type { Receiver } from './receiver.ts';
import { deadlineOf, FINAL_PAYMENT_STATUSES, FINAL_REFUND_STATUSES, isOpen, readAll, type PaymentView } from './state.ts';

// After the load: every process up again, then wait (bounded) until each open item is final or overdue, and until
// each final item's notification arrived. Overdue items are left for the checks to report.

const POLL_MS = 2_000;
const NOTIFICATION_WAIT_MS = 45_000;

export interface SettleInput {
  cluster: Cluster;
  client: Client;
  key: string;
  receiver: Receiver;
  scheduleSlackMs: number;
  openLifetimeMs: number;
}

export async function settle(input: SettleInput): Promise<{ payments: PaymentView[]; seconds: number }> {
  const started = Date.now();
  const { cluster, client, key, receiver } = input;
  for (const member of cluster.members) if (!cluster.isRunning(member) || !member.healthy) await cluster.restart(member);
  const bound = started + input.openLifetimeMs + input.scheduleSlackMs * 2;
  let payments = await readAll(client, key);
  while (Date.now() < bound) {
    const waiting = payments.filter((payment) => isOpen(payment) && Date.now() <= deadlineOf(payment, input.scheduleSlackMs, input.openLifetimeMs));
    if (waiting.length === 0) break;
    await sleep(POLL_MS);
    payments = await readAll(client, key);
  }
  const notificationsBound = Date.now() + NOTIFICATION_WAIT_MS;
  while (Date.now() < notificationsBound && unnotified(payments, receiver) > 0) {
    await sleep(POLL_MS);
    payments = await readAll(client, key);
  }
  return { payments, seconds: Math.round((Date.now() - started) / 1000) };
}

function unnotified(payments: PaymentView[], receiver: Receiver): number {
  const seen = new Set(receiver.received.map((notification) => `${notification.token} ${notification.status}`));
  let missing = 0;
  for (const payment of payments) {
    if (FINAL_PAYMENT_STATUSES.has(payment.status) && !seen.has(`${payment.token} ${payment.status}`)) missing += 1;
    for (const refund of payment.refunds) if (FINAL_REFUND_STATUSES.has(refund.status) && !seen.has(`${refund.token} ${refund.status}`)) missing += 1;
  }
  return missing;
}
