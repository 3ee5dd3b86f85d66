import { expect } from 'vitest';
import { adapterAnswer, reply, type FakeAdapter } from '../../support/fake-adapter.ts';
import type { ServerHarness } from '../../support/server-harness.ts';

// Payments for the dashboard's Payments tests, made through the merchant API of a running server: the sandbox's
// test cards in test mode (4242… approved at once), a fake acquirer in live mode.

const APPROVED_CARD = '4242 4242 4242 4242';
const LIVE_CARD = '4111 1111 1111 1111'; // not a sandbox test card: live mode declines those before any acquirer

export interface CreatedPayment {
  token: string;
  status: string;
}

export function paymentsOf(server: ServerHarness) {
  const create = async (key: string, body: Record<string, unknown>): Promise<CreatedPayment> => {
    const created = await server.call('POST', '/api/v1/payments', {
      key,
      body: { product: 'Concert ticket', amount: 1000, currency: 'USD', callbackUrl: 'https://merchant.example/callback', ...body },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return { token: created.body.token, status: created.body.payment.status };
  };
  const withCard = (pan = APPROVED_CARD, email = 'ada@example.com') => ({
    card: { pan, expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
    customer: { email, ip: '203.0.113.7' },
  });
  return {
    create,
    // hosted: init until a customer pays it
    hosted: (key: string, extra: Record<string, unknown> = {}) => create(key, extra),
    approved: async (key: string, extra: Record<string, unknown> = {}, email?: string) => {
      const payment = await create(key, { ...withCard(APPROVED_CARD, email), ...extra });
      expect(payment.status).toBe('approved');
      return payment;
    },
    liveApproved: async (key: string, extra: Record<string, unknown> = {}) => {
      const payment = await create(key, { ...withCard(LIVE_CARD), ...extra });
      expect(payment.status).toBe('approved');
      return payment;
    },
    authorized: async (key: string, extra: Record<string, unknown> = {}) => {
      const payment = await create(key, { ...withCard(), needConfirmation: true, ...extra });
      expect(payment.status).toBe('authorized');
      return payment;
    },
    detail: async (key: string, token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key })).body.payment,
  };
}

// A production gateway whose acquirer is the fake adapter, answering every /pay approved.
export async function addLiveAcquirer(server: ServerHarness, merchantId: number, adapter: FakeAdapter): Promise<void> {
  adapter.respond('pay', reply.json(adapterAnswer.approved('gw-live')));
  const settings = {
    api_key: 'ak_live_dashboard_payments',
    sign_key: 'a'.repeat(32),
    sandbox: false,
    host2host: true,
    validate_signature: true,
    gateway_settings: {
      processing_method: 'http_requests',
      full_link: adapter.url,
      methods: { pay: { response_timeout: 5, final_waiting_seconds: 60 }, status: { response_timeout: 5 } },
    },
  };
  const created = await server.call('POST', `/api/admin/v1/merchants/${merchantId}/gateways`, {
    key: server.adminKey,
    body: { alias: 'acquirer', environment: 'production', settings },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
}

export function csrfOf(body: string): string {
  return /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? '';
}
