// The refund and payout scenarios. Each seeds the merchant's balance through Payrail itself (approved Host-to-Host
// payments through the built-in sandbox) before its warm-up, so the measured run only refunds or pays out.
import { request } from 'undici';
import type { ServerSession, Workload } from './measure.ts';

const SEED_CONCURRENCY = 16;
const REFUNDED_PAYMENTS = 400; // the sandbox takes at most 100 refunds of one payment: 40,000 refunds in all
const REFUND_AMOUNT = 100; // minor units, of payments of SEED_PAYMENT_AMOUNT
const SEED_PAYMENT_AMOUNT = 1_000_000;
const PAYOUT_SEED_PAYMENTS = 40; // 40 × 1,000,000: 400,000 payouts of PAYOUT_AMOUNT
const PAYOUT_AMOUNT = 100;

function seedPaymentBody(callbackUrl: string, index: number): string {
  return JSON.stringify({
    product: 'Bench seed',
    amount: SEED_PAYMENT_AMOUNT,
    currency: 'USD',
    callbackUrl,
    orderNumber: `bench-seed-${index}`,
    card: { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Bench Holder', cvv: '123' }, // approved at once
    customer: { email: 'bench@example.com', ip: '203.0.113.10' },
  });
}

// Approved sandbox payments, SEED_CONCURRENCY at a time; their tokens.
async function approvedPayments(session: ServerSession, callbackUrl: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const response = await request(`${session.url}/api/v1/payments`, {
        method: 'POST',
        dispatcher: session.agent,
        headers: { authorization: `Bearer ${session.merchantKey}`, 'content-type': 'application/json' },
        body: seedPaymentBody(callbackUrl, index),
      });
      const text = await response.body.text();
      const parsed = JSON.parse(text) as { token?: string; payment?: { status?: string } };
      if (response.statusCode !== 200 || parsed.payment?.status !== 'approved' || !parsed.token) {
        throw new Error(`seeding payment ${index} answered ${response.statusCode}: ${text.slice(0, 300)}`);
      }
      tokens.push(parsed.token);
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
  return tokens;
}

const successWith = (body: string, read: (parsed: Record<string, unknown>) => unknown) => {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    return parsed['success'] === true && read(parsed) === 'approved';
  } catch {
    return false;
  }
};

// Partial refunds, each of another payment in turn: a refund locks its payment, so spreading them measures the
// refund path rather than waiting on one row.
export function refundWorkload(callbackUrl: string): Workload {
  return {
    scenario: 'refund',
    path: '/api/v1/refunds',
    body: '{}',
    expectedBody: (body) => successWith(body, (parsed) => (parsed['refund'] as { status?: unknown } | undefined)?.status),
    seed: async (session) => {
      const tokens = await approvedPayments(session, callbackUrl, REFUNDED_PAYMENTS);
      let index = 0;
      return () => JSON.stringify({ token: tokens[index++ % tokens.length], amount: REFUND_AMOUNT });
    },
  };
}

// Card payouts to the sandbox's approving payout card, from a balance seeded by approved payments.
export function payoutWorkload(callbackUrl: string): Workload {
  return {
    scenario: 'payout',
    path: '/api/v1/payouts',
    body: JSON.stringify({
      amount: PAYOUT_AMOUNT,
      currency: 'USD',
      orderNumber: 'bench-payout',
      callbackUrl,
      bank_account: { requisite_type: 'card' },
      card: { pan: '5555 5555 5555 4444' }, // the sandbox approves payouts to it at once
      customer: { email: 'bench@example.com', ip: '203.0.113.10', first_name: 'Bench', last_name: 'Holder' },
    }),
    expectedBody: (body) => successWith(body, (parsed) => (parsed['payment'] as { status?: unknown } | undefined)?.status),
    seed: async (session) => {
      await approvedPayments(session, callbackUrl, PAYOUT_SEED_PAYMENTS);
      return null;
    },
  };
}
