import { describe, expect, it } from 'vitest';
import { compactExchangeLogs, paymentLogEntries } from '../../../src/payments/flows/payment-log-entries.ts';

const request = (url: string) => ({ url, body: { method_name: 'pay', payment: { token: 'pay-token-1' } } });

describe('payment log entries', () => {
  it('folds the adapter’s log of our own request into our item when it tells the same answer', () => {
    const echo = { kind: 'pay', request: request('https://adapter.example/pay'), status: 200, response: { result: true, status: 'approved' }, duration: 0.002 };
    const own = {
      kind: 'pay',
      request: request('https://adapter.example/pay'),
      status: 200,
      response: { result: true, status: 'approved', logs: [echo] },
      duration: 0.0123456789,
    };
    expect(compactExchangeLogs([own, echo])).toEqual([
      {
        kind: 'pay',
        request: request('https://adapter.example/pay'),
        status: 200,
        response: { result: true, status: 'approved' },
        duration: 0.012346,
        adapter_duration: 0.002,
      },
    ]);
  });

  it('keeps an adapter log whose answer differs, without its copy of the request (matched by method and token over a queue)', () => {
    const echo = { kind: 'pay', request: request('rabbit://payrail.adapter#pay'), status: 200, response: { result: false, error: 'provider down' } };
    const own = {
      kind: 'pay',
      request: request('amqp://broker/payrail.adapter#pay'),
      status: 200,
      response: { result: false, error: 'unreadable', logs: [echo] },
    };
    const [ours, theirs] = compactExchangeLogs([own, echo]) as Record<string, unknown>[];
    expect(ours).toEqual({ kind: 'pay', request: request('amqp://broker/payrail.adapter#pay'), status: 200, response: { result: false, error: 'unreadable' } });
    expect(theirs).toEqual({ ...echo, request: { url: 'rabbit://payrail.adapter#pay', body: '[the request logged above]' } });
  });

  it('keeps the adapter’s logs inside an answer when they are not stored beside it, and a provider call as it is', () => {
    const providerCall = { kind: 'pay', request: { url: 'https://provider.example/charge', body: { amount: 1999 } }, status: 201, response: { id: 'ch_1' } };
    const unread = { kind: 'pay', request: request('https://adapter.example/pay'), response: { logs: [providerCall] } };
    expect(compactExchangeLogs([unread])).toEqual([unread]);
    const own = { kind: 'pay', request: request('https://adapter.example/pay'), response: { result: true, status: 'approved', logs: [providerCall] } };
    expect(compactExchangeLogs([own, providerCall])).toEqual([{ ...own, response: { result: true, status: 'approved' } }, providerCall]);
  });

  it('traces the settings block by its switches and addresses, never a secret, even redacted', () => {
    const settings = {
      api_key: 'ak_live_1',
      sign_key: 'sk_1',
      merchant_password: 'pw',
      certificate: `-----BEGIN PRIVATE KEY-----${'A'.repeat(40)}`,
      note: 'n'.repeat(300),
      sandbox: false,
      host2host: true,
      merchant_id: 'shop-7',
      custom_requisite_fields: ['iban'],
      gateway_settings: {
        processing_method: 'rabbit',
        rabbit_url: 'amqps://payrail:hunter2@broker.example:5671/vhost',
        rabbit_password: 'hunter2',
        rabbit_queue: 'acquirer',
        methods: { pay: { response_timeout: 30 } },
        status_checker_time_rates: { '1-': 60 },
      },
    };
    const [stored] = paymentLogEntries('pay', [{ kind: 'pay', request: { url: 'https://adapter.example/pay', body: { method_name: 'pay', settings } } }]);
    expect(stored?.entry).toEqual({
      kind: 'pay',
      request: {
        url: 'https://adapter.example/pay',
        body: {
          method_name: 'pay',
          settings: {
            sandbox: false,
            host2host: true,
            merchant_id: 'shop-7',
            gateway_settings: { processing_method: 'rabbit', rabbit_url: 'amqps://broker.example:5671/vhost', rabbit_queue: 'acquirer' },
          },
        },
      },
    });
  });
});
