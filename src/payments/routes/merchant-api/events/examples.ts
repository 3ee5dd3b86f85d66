// The examples of the events API's schemas (openapi.json).
const EVENT_ID = 'evt_5c0f3b9e6a8d4f21b7e0c4a1d9f2e837';
const PAYMENT_TOKEN = '3f9a1c7e5b2d4086a1e9c3b7d5f20a64';

const delivered = { state: 'delivered', attempts: 1, nextAttemptAt: null, lastError: null };

export const eventListExample = {
  success: true,
  result: 0,
  events: [{ id: EVENT_ID, type: 'payment.approved', createdAt: '2026-11-23T19:37:57.512Z', paymentToken: PAYMENT_TOKEN, sequence: 1, delivery: delivered }],
  nextCursor: null,
};

export const eventDetailExample = {
  success: true,
  result: 0,
  event: {
    id: EVENT_ID,
    type: 'payment.approved',
    createdAt: '2026-11-23T19:37:57.512Z',
    paymentToken: PAYMENT_TOKEN,
    sequence: 1,
    delivery: delivered,
    payload: {
      token: PAYMENT_TOKEN,
      type: 'pay',
      status: 'approved',
      extraReturnParam: '',
      amount: 1000,
      currency: 'USD',
      gatewayAmount: 1000,
      gatewayCurrency: 'USD',
      orderNumber: 'order-1001',
      cardHolder: 'Ada Lovelace',
      sanitizedMask: '424242******4242',
      walletToken: '',
      walletDisplayName: '',
      gatewayDetails: {},
      eventSequence: 1,
      eventTime: '2026-11-23T19:37:57.498Z',
      signature: '6f1d2c3b4a5968778695a4b3c2d1e0f9',
    },
    attempts: [{ number: 1, at: '2026-11-23T19:37:57.942Z', url: 'https://merchant.example/callback', responseStatus: 200, error: null, durationMs: 27 }],
  },
};

export const resentEventExample = { success: true, result: 0, id: EVENT_ID, queued: true };
