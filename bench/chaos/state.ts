import type { Client } from './client.ts';

// What Payrail holds after the run, read through the merchant API: every payment and payout of the chaos merchant
// with its refunds.

export const FINAL_PAYMENT_STATUSES = new Set(['approved', 'declined', 'expired', 'cancelled', 'refunded']);
export const FINAL_REFUND_STATUSES = new Set(['approved', 'declined']);

interface RefundView {
  token: string;
  amount: number;
  status: string;
  createdAt: number;
}

export interface PaymentView {
  token: string;
  operationType: string; // pay | payout
  orderNumber: string | null;
  status: string;
  amount: number;
  capturedAmount: number | null;
  refundedAmount: number;
  createdAt: number;
  expiresAt: number | null;
  refunds: RefundView[];
  lastLog: string; // the last interaction log entry, shortened: why an item is still open
}

const PAGE_SIZE = 500;
const PAGES_MAX = 200;
const DETAIL_CONCURRENCY = 8;
const LAST_LOG_CHARS_MAX = 240;

export async function readAll(client: Client, key: string): Promise<PaymentView[]> {
  const tokens: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < PAGES_MAX; page += 1) {
    const query = new URLSearchParams({ operationType: 'all', perPage: String(PAGE_SIZE) });
    if (cursor !== null) query.set('cursor', cursor);
    const answer = await client.call('GET', `/api/v1/payments?${query}`, { key });
    if (answer.status !== 200) throw new Error(`listing payments answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    for (const item of answer.body['payments'] as { token: string }[]) tokens.push(item.token);
    cursor = (answer.body['nextCursor'] as string | null) ?? null;
    if (cursor === null) break;
  }
  const views: PaymentView[] = [];
  for (let start = 0; start < tokens.length; start += DETAIL_CONCURRENCY) {
    const batch = tokens.slice(start, start + DETAIL_CONCURRENCY);
    views.push(...(await Promise.all(batch.map((token) => readOne(client, key, token)))).filter((view) => view !== null));
  }
  return views;
}

async function readOne(client: Client, key: string, token: string): Promise<PaymentView | null> {
  const answer = await client.call('GET', `/api/v1/payments/${token}`, { key });
  if (answer.status === 404) return null;
  if (answer.status !== 200) throw new Error(`GET payment answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  const payment = answer.body['payment'] as Record<string, unknown>;
  const time = (value: unknown) => (typeof value === 'string' ? Date.parse(value) : null);
  return {
    token,
    operationType: String(payment['operation_type']),
    orderNumber: (payment['order_number'] as string | null) ?? null,
    status: String(payment['status']),
    amount: Number(payment['amount']),
    capturedAmount: payment['captured_amount'] === null || payment['captured_amount'] === undefined ? null : Number(payment['captured_amount']),
    refundedAmount: Number(payment['refunded_amount'] ?? 0),
    createdAt: time(payment['created_at']) ?? 0,
    expiresAt: time(payment['expires_at']),
    lastLog: JSON.stringify((payment['interaction_logs'] as unknown[] | undefined)?.at(-1) ?? null).slice(0, LAST_LOG_CHARS_MAX),
    refunds: ((payment['refunds'] as Record<string, unknown>[] | undefined) ?? []).map((refund) => ({
      token: String(refund['token']),
      amount: Number(refund['amount']),
      status: String(refund['status']),
      createdAt: time(refund['created_at']) ?? 0,
    })),
  };
}

// When an item still open is overdue: its lifetime (expires_at; without one, the configured lifetime from its
// creation) plus the status-check schedule.
export function deadlineOf(payment: PaymentView, scheduleSlackMs: number, openLifetimeMs: number): number {
  return (payment.expiresAt ?? payment.createdAt + openLifetimeMs) + scheduleSlackMs;
}

export function isOpen(payment: PaymentView): boolean {
  return !FINAL_PAYMENT_STATUSES.has(payment.status) || payment.refunds.some((refund) => !FINAL_REFUND_STATUSES.has(refund.status));
}
