import { randomBytes } from 'node:crypto';
import type { FakeAdapter } from './fake-adapter.ts';
import type { Harness } from './harness.ts';

// A production gateway whose adapter is a test's own fake adapter (a real HTTP server on 127.0.0.1).
export async function addProductionGateway(harness: Harness, merchantId: number, adapter: FakeAdapter, pay: Record<string, unknown> = {}): Promise<void> {
  const settings = {
    api_key: `ak_live_${randomBytes(8).toString('hex')}`,
    sign_key: randomBytes(16).toString('hex'),
    sandbox: false,
    host2host: true,
    validate_signature: true,
    gateway_settings: {
      processing_method: 'http_requests',
      full_link: adapter.url,
      methods: { pay: { response_timeout: 5, final_waiting_seconds: 60, ...pay }, status: { response_timeout: 5 } },
    },
  };
  const response = await harness.app.inject({
    method: 'POST',
    url: `/api/admin/v1/merchants/${merchantId}/gateways`,
    headers: { authorization: `Bearer ${harness.adminKey}` },
    payload: { alias: 'acquirer', environment: 'production', settings },
  });
  if (response.statusCode !== 200) throw new Error(`gateway create failed: ${response.body}`);
}

// A Host-to-Host create request; the card is not a sandbox test card, which production declines before any adapter.
export function cardPayment(orderNumber: string, card: Partial<{ pan: string; cvv: string }> = {}) {
  return {
    product: 'Order #77',
    amount: 1999,
    currency: 'EUR',
    callbackUrl: 'https://merchant.example/callback',
    orderNumber,
    card: { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321', ...card },
    customer: { email: 'ada@example.com', ip: '203.0.113.7' },
  };
}
