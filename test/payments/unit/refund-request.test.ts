import { describe, expect, it } from 'vitest';
import type { GatewaySettings } from '../../../src/payments/contract/adapter-contract.ts';
import { buildRefundRequest } from '../../../src/payments/flows/refund-send.ts';

const settings: GatewaySettings = {
  api_key: 'ak',
  sign_key: 's'.repeat(32),
  gateway_settings: { processing_method: 'http_requests', full_link: 'https://adapter.example' },
};
const refund = { token: 'a'.repeat(32), amountMinor: 250 };

describe('the /refund request', () => {
  it('carries the payment as the provider knows it and the refund with its own token', () => {
    expect(buildRefundRequest({ token: 'b'.repeat(32), gatewayToken: 'gw-1', currency: 'EUR' }, refund, settings)).toEqual({
      method_name: 'refund',
      payment: { token: 'b'.repeat(32), gateway_token: 'gw-1', currency: 'EUR' },
      refund: { amount: 250, token: 'a'.repeat(32) },
      settings,
    });
  });

  it('leaves gateway_token out, never null, when the provider gave none', () => {
    const request = buildRefundRequest({ token: 'b'.repeat(32), gatewayToken: null, currency: 'EUR' }, refund, settings);
    expect(Object.keys(request.payment)).toEqual(['token', 'currency']);
  });
});
