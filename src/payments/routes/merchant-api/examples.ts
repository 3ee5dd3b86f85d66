// The merchant API's documented examples (OpenAPI `example(s)`, Swagger UI's "Try it out" defaults): request bodies
// the API accepts as they stand with a sandbox key, and answers as the sandbox gives them (test/payments/integration/openapi.test.ts
// sends the create-payment ones and checks every one against its schema).

import { DEMO_PLACEHOLDERS } from '../../../platform/lib/openapi-demo-placeholders.ts';

const PUBLIC_URL = 'https://pay.example.com';

const PAYMENT_TOKEN = DEMO_PLACEHOLDERS.approvedPaymentToken;
const CREATED_AT = '2026-11-23T19:37:57.805Z';
const FINALIZED_AT = '2026-11-23T19:37:57.871Z';

export const createPaymentHostedExample = {
  product: 'Order #1001',
  amount: 1000,
  currency: 'USD',
  callbackUrl: 'https://merchant.example/callback',
  redirectSuccessUrl: 'https://merchant.example/ok',
  redirectFailUrl: 'https://merchant.example/fail',
  orderNumber: 'order-1001',
  locale: 'en',
};

// Host-to-Host with the sandbox card that is approved at once (GET /api/v1/sandbox/test-cards).
export const createPaymentCardExample = {
  product: 'Order #1002',
  amount: 2500,
  currency: 'USD',
  callbackUrl: 'https://merchant.example/callback',
  orderNumber: 'order-1002',
  card: { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Ada Lovelace', cvv: '123' },
  customer: { email: 'ada@example.com', ip: '203.0.113.7' },
};

export const createdHostedExample = {
  success: true,
  result: 0,
  status: 200,
  errors: [],
  token: 'fd075147dd42a5e1bd58c0b50624ec70',
  processingUrl: `${PUBLIC_URL}/checkout/fd075147dd42a5e1bd58c0b50624ec70?locale=en`,
  payment: { amount: '1000', gateway_amount: 1000, currency: 'USD', status: 'init', two_stage_mode: false },
};

export const createdThreeDSecureExample = {
  success: true,
  result: 0,
  status: 200,
  errors: [],
  token: 'ff05cb082a234701517130ec4e4794ca',
  processingUrl: `${PUBLIC_URL}/checkout/ff05cb082a234701517130ec4e4794ca?locale=en`,
  payment: { amount: '2500', gateway_amount: 2500, currency: 'USD', status: 'pending', two_stage_mode: false },
  redirectRequest: {
    url: `${PUBLIC_URL}/sandbox-adapter/3ds/sbx_E8x_kL9pMVTHyaYgUML8gGAM`,
    type: 'post',
    params: {
      MD: 'sbx_E8x_kL9pMVTHyaYgUML8gGAM',
      PaReq: 'eyJ0cmFuc2FjdGlvbl9pZCI6InNieF9FOHhfa0w5cE1WVEh5YVlnVU1MOGdHQU0iLCJhbW91bnQiOjI1MDAsImN1cnJlbmN5IjoiVVNEIn0=',
      TermUrl: `${PUBLIC_URL}/checkout/ff05cb082a234701517130ec4e4794ca/return`,
    },
  },
};

const listItemExample = {
  id: 2,
  status: 'approved',
  token: PAYMENT_TOKEN,
  currency: 'USD',
  product: 'Order #1002',
  redirect_success_url: null,
  redirect_fail_url: null,
  amount: 2500,
  created_at: CREATED_AT,
  updated_at: FINALIZED_AT,
  extra_return_param: null,
  operation_type: 'pay',
  order_number: 'order-1002',
};

export const paymentDetailExample = {
  success: true,
  errors: [],
  status: 200,
  payment: {
    ...listItemExample,
    callback_url: 'https://merchant.example/callback',
    pending_url: null,
    gateway_amount: 2500,
    gateway_currency: 'USD',
    locale: 'en',
    expires_at: '2026-11-23T20:07:57.803Z',
    two_stage_mode: false,
    authorized_until: null,
    captured_amount: 2500,
    refunded_amount: 0,
    refunds: [],
    commission_data: { commission_value: 0, commission_fee: 0, commission_amount: 0 },
    recurring: false,
    merchant_url: null,
    card: { mask: '424242******4242', holder: 'Ada Lovelace', expires: '12/2030' },
    customer: {
      email: 'ada@example.com',
      first_name: null,
      last_name: null,
      address: null,
      country: null,
      city: null,
      region: null,
      postcode: null,
      phone: null,
      ip: '203.0.113.7',
      browser: null,
    },
    recurring_data: null,
    decline_reason: null,
    gateway_token: 'sbx_9n-Khf0w6PBgPuac9te794Ig',
    gateway_details: null,
    requisites: null,
    redirect_request: null,
    pending_step: null,
    gateway: 'sandbox',
    routing: null,
    interaction_logs: [],
    bank_account: null,
  },
};

export const paymentListExample = {
  success: true,
  errors: [],
  status: 200,
  totalCount: 6,
  totalCountExact: true,
  curentPage: 1,
  perPage: 1,
  totalPage: 6,
  nextCursor: 'MjAyNi0xMS0yM1QxOTozNzo1Ny44MDUwMDBaIDI',
  payments: [listItemExample],
};

export const confirmExample = { amount: 2000 };
export const secureCodeExample = { code: '123456' };
export const nextStepExample = { fields: { phone: '+15550100123' } };

export const createPayoutExample = {
  amount: 700,
  currency: 'USD',
  orderNumber: 'payout-2001',
  callbackUrl: 'https://merchant.example/callback',
  bank_account: { requisite_type: 'card' },
  card: { pan: '5555 5555 5555 4444' },
  customer: { email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' },
};

export const createdPayoutExample = {
  success: true,
  result: 0,
  status: 200,
  errors: [],
  token: '726000ed02daedbaf13e44dc512479e6',
  processingUrl: [{ sandbox: `${PUBLIC_URL}/checkout/726000ed02daedbaf13e44dc512479e6?locale=en` }],
  selectorUrl: `${PUBLIC_URL}/checkout/726000ed02daedbaf13e44dc512479e6/select?locale=en`,
  payment: { amount: 700, currency: 'USD', gateway_amount: 700, gateway_currency: 'USD', status: 'approved', commission: 0 },
  payout: { token: '726000ed02daedbaf13e44dc512479e6', status: 'approved' },
};

export const createRefundExample = { token: PAYMENT_TOKEN, amount: 500 };

const refundExample = { token: DEMO_PLACEHOLDERS.refundToken, amount: 500, status: 'approved', currency: 'USD', commission: 0 };

export const createdRefundExample = { success: true, result: 0, status: 200, errors: [], token: PAYMENT_TOKEN, refund: refundExample };

export const refundDetailExample = {
  ...createdRefundExample,
  refund: {
    ...refundExample,
    decline_reason: null,
    created_at: '2026-11-23T19:37:59.582Z',
    updated_at: '2026-11-23T19:37:59.770Z',
    finalized_at: '2026-11-23T19:37:59.770Z',
  },
};

export const balanceExample = { success: true, result: 0, status: 200, wallets: [{ currency: 'USD', available: 6500, hold: 0 }] };
export const balanceOfCurrencyExample = { success: true, result: 0, status: 200, wallet: { available: 6500, hold: 0, currency: 'USD' } };

export const notificationsExample = {
  success: true,
  errors: [],
  notifications: [
    {
      event_id: '405f4472-5791-4739-ac9a-7793e4ba15d5',
      attempt: 1,
      url: 'https://merchant.example/callback',
      response_status: 200,
      error: null,
      duration_ms: 27,
      created_at: '2026-11-23T19:37:57.942Z',
    },
  ],
};

export const resentNotificationExample = { success: true, errors: [], event_id: 'c5a769f7-a023-4ca3-9ba3-43923c145b06' };

// multipart/form-data: the text fields; files go as document[].
export const createDisputeExample = { token: PAYMENT_TOKEN, description: 'The customer says the goods never arrived.', amount: '300' };

const disputeExample = {
  token: DEMO_PLACEHOLDERS.disputeToken,
  payment_token: PAYMENT_TOKEN,
  amount: 300,
  currency: 'USD',
  status: 'open',
  description: 'The customer says the goods never arrived.',
  resolution_note: null,
  documents: [{ id: 1, file_name: 'receipt.pdf', media_type: 'application/pdf', size: 48213 }],
  created_at: '2026-11-23T19:38:03.679Z',
  updated_at: '2026-11-23T19:38:03.679Z',
  resolved_at: null,
};

export const disputeEnvelopeExample = { success: true, result: 0, status: 'open', dispute: disputeExample };
export const disputeListExample = { success: true, result: 0, perPage: 20, nextCursor: null, disputes: [disputeExample] };
