import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { callbackMerchant, ORDER, payWithCard, paymentOf, postCallback, signedCallback } from '../../support/callback-merchant.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter } from '../../support/fake-adapter.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();

// spec 2.10: enable_update_amount allows an amount update by callback; nothing else changes the amount.
describe.each(engines)('the amount a gateway reports, with enable_update_amount, on %s', (engine) => {
  let server: ServerHarness;

  beforeAll(async () => {
    server = await startServerHarness(engine, { PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1' });
  });
  afterAll(async () => server?.close());

  const adapterWith = async () => {
    const adapter = await startFakeAdapter();
    onTestFinished(() => adapter.close());
    return adapter;
  };
  const ignoredAmountLogs = (payment: { interaction_logs: { kind: string; entry: unknown }[] }) =>
    payment.interaction_logs.filter((log) => log.kind === 'amount_ignored');

  it('logs, never applies, a /status answer with another amount (amount × 100, as an independent adapter answers)', async () => {
    const adapter = await adapterWith();
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-cents')));
    adapter.respond('status', reply.json(adapterAnswer.approved('gw-cents', { amount: ORDER.amount * 100, currency: ORDER.currency })));
    const merchant = await callbackMerchant(server, adapter, { enable_update_amount: true }, true);
    const { token } = await payWithCard(server, merchant, 'status-cents');
    await expect.poll(async () => (await paymentOf(server, merchant.productionKey, token)).status, { timeout: 10_000, interval: 100 }).toBe('approved');
    const payment = await paymentOf(server, merchant.productionKey, token);
    expect(payment).toMatchObject({ amount: ORDER.amount, gateway_amount: ORDER.amount, currency: ORDER.currency });
    expect(ignoredAmountLogs(payment)).toMatchObject([
      {
        entry: {
          source: 'status',
          reported: { amount: ORDER.amount * 100, currency: ORDER.currency },
          payment: { amount: ORDER.amount, currency: ORDER.currency },
        },
      },
    ]);
  });

  it('logs, never applies, a /pay answer with another amount', async () => {
    const adapter = await adapterWith();
    adapter.respond('pay', reply.json(adapterAnswer.approved('gw-pay-cents', { amount: ORDER.amount * 100, currency: ORDER.currency })));
    const merchant = await callbackMerchant(server, adapter, { enable_update_amount: true });
    const { token, status } = await payWithCard(server, merchant, 'pay-cents');
    expect(status).toBe('approved');
    const payment = await paymentOf(server, merchant.productionKey, token);
    expect(payment).toMatchObject({ amount: ORDER.amount, gateway_amount: ORDER.amount });
    expect(ignoredAmountLogs(payment)).toMatchObject([{ entry: { source: 'pay', reported: { amount: ORDER.amount * 100 } } }]);
  });

  it('applies a provider callback with another amount', async () => {
    const adapter = await adapterWith();
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-update')));
    const merchant = await callbackMerchant(server, adapter, { enable_update_amount: true });
    const { token } = await payWithCard(server, merchant, 'callback-update');
    const jwt = await signedCallback(merchant.gateway.signKey, merchant.productionKey, { status: 'approved', gateway_token: 'gw-update', amount: 1500 });
    expect(await postCallback(server, token, jwt)).toMatchObject({ status: 200, body: { applied: true } });
    const payment = await paymentOf(server, merchant.productionKey, token);
    expect(payment).toMatchObject({ status: 'approved', amount: 1500, gateway_amount: 1500 });
    expect(ignoredAmountLogs(payment)).toEqual([]);
  });
});
