import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { DashboardClient } from '../../support/dashboard.ts';
import { adapterAnswer, reply, type FakeAdapter } from '../../support/fake-adapter.ts';
import type { Harness, TestMerchant } from '../../support/harness.ts';
import { addProductionGateway, cardPayment } from '../../support/production-gateway.ts';
import { approvedPayment, disputeForm, multipartBody, pngPart, postDispute, type FormPart } from '../../payments/integration/disputes-fixtures.ts';

// A merchant's payout, refund and dispute in one mode, each made through the merchant API with the merchant's key.
export interface MoneyOutRecords {
  paymentToken: string;
  payoutToken: string;
  refundToken: string;
  disputeToken: string;
  documentId: number;
}

const json = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

const cardPayoutBody = (currency: string, amount: number, orderNumber: string) => ({
  amount,
  currency,
  orderNumber,
  callbackUrl: 'https://merchant.example/payouts',
  bank_account: { requisite_type: 'card' },
  card: { pan: '5555 5555 5555 4444' },
  customer: { email: 'payee@example.com', first_name: 'Ada', last_name: 'Lovelace' },
});

// Sandbox: an approved payment of 100.00 USD (captured through the state machine), a payout of 20.00 (the inject
// harness reaches no adapter: it stays processing), a refund of 5.00 and a dispute of 3.00 with a PNG.
export async function sandboxRecords(harness: Harness, merchant: TestMerchant): Promise<MoneyOutRecords> {
  const key = merchant.sandboxKey;
  const paid = await approvedPayment(harness, key, 10_000);
  const payout = json(await harness.merchantRequest(key, { method: 'POST', url: '/api/v1/payouts', payload: cardPayoutBody('USD', 2000, 'payout-sandbox') }));
  const refund = json(await harness.merchantRequest(key, { method: 'POST', url: '/api/v1/refunds', payload: { token: paid.token, amount: 500 } }));
  const dispute = json(await postDispute(harness, key, disputeForm(paid.token, 300, [pngPart()])));
  return {
    paymentToken: paid.token,
    payoutToken: payout.token,
    refundToken: refund.refund.token,
    disputeToken: dispute.dispute.token,
    documentId: dispute.dispute.documents[0].id,
  };
}

// Live: a production gateway on a fake adapter that approves the payment (19.99 EUR) and leaves the rest pending.
export async function productionRecords(harness: Harness, merchant: TestMerchant, adapter: FakeAdapter): Promise<MoneyOutRecords> {
  const key = merchant.productionKey;
  await addProductionGateway(harness, merchant.id, adapter);
  adapter.respond('pay', reply.json(adapterAnswer.approved('gw-live-pay')));
  const paid = json(await harness.merchantRequest(key, { method: 'POST', url: '/api/v1/payments', payload: cardPayment('live-order-1') }));
  expect(paid.payment.status).toBe('approved');
  const payout = json(await harness.merchantRequest(key, { method: 'POST', url: '/api/v1/payouts', payload: cardPayoutBody('EUR', 500, 'payout-live') }));
  const refund = json(await harness.merchantRequest(key, { method: 'POST', url: '/api/v1/refunds', payload: { token: paid.token, amount: 100 } }));
  const dispute = json(await postDispute(harness, key, disputeForm(paid.token, 200, [pngPart('live.png')])));
  return {
    paymentToken: paid.token,
    payoutToken: payout.token,
    refundToken: refund.refund.token,
    disputeToken: dispute.dispute.token,
    documentId: dispute.dispute.documents[0].id,
  };
}

// The evidence form of a dispute page, sent as a browser sends it: multipart, with the token of its action's query.
export async function uploadEvidence(
  harness: Harness,
  member: DashboardClient,
  disputeToken: string,
  parts: readonly FormPart[],
): Promise<LightMyRequestResponse> {
  const page = await member.get(`/dashboard/disputes/${disputeToken}`);
  const action = /<form method="post" action="([^"]+)" enctype="multipart\/form-data"/.exec(page.body)?.[1];
  // A role without the form forges one with the token any page of the dashboard carries.
  const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  const url = action?.replaceAll('&amp;', '&') ?? `/dashboard/disputes/${disputeToken}/evidence?_csrf=${encodeURIComponent(token)}`;
  const form = multipartBody(parts);
  return harness.app.inject({ method: 'POST', url, payload: form.payload, headers: { cookie: member.cookieHeader(), 'content-type': form.contentType } });
}

// The payout form's fields as a person fills them in for a card payout.
export const cardPayoutForm = (overrides: Record<string, string> = {}): Record<string, string> => ({
  kind: 'card',
  amount: '12.50',
  currency: 'USD',
  pan: '5555 5555 5555 4444',
  bankName: '',
  accountNumber: '',
  email: 'payee@example.com',
  phone: '',
  firstName: 'Ada',
  lastName: 'Lovelace',
  middleName: '',
  orderNumber: 'dashboard-payout-1',
  callbackUrl: 'https://merchant.example/payouts',
  ...overrides,
});
