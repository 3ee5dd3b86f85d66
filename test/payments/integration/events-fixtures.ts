import { expect } from 'vitest';
import type { Engine } from '../../../src/platform/database.ts';
import { startWorkers, type RunningWorkers } from '../../../src/workers/runner.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway, cardPayment } from '../../support/production-gateway.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';

const WORKER_POLL_MS = 60_000; // passes are driven with tick()
const PASSES_MAX = 6;

// A production merchant whose gateway is a fake adapter, its notifications delivered to a local receiver by workers
// the tests tick: the events API's tests read what happened to real payments.
export interface EventsFixture {
  harness: Harness;
  merchant: TestMerchant;
  adapter: FakeAdapter;
  receiver: Receiver;
  workers: RunningWorkers;
  pay(orderNumber: string, outcome: 'approved' | 'declined'): Promise<string>;
  refund(token: string): Promise<void>;
  deliverAll(): Promise<void>;
  api(key: string, method: 'GET' | 'POST', url: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startEventsFixture(engine: Engine): Promise<EventsFixture> {
  const harness = await startHarness(engine);
  const merchant = await harness.createMerchant('Events merchant');
  const adapter = await startFakeAdapter();
  await addProductionGateway(harness, merchant.id, adapter);
  const receiver = await startReceiver();
  const workers = startWorkers({ context: harness.app.payrail, adapterClient: harness.app.payrail.adapterClient }, harness.app.log, WORKER_POLL_MS);
  let gatewayTokens = 0;
  const fixture: EventsFixture = {
    harness,
    merchant,
    adapter,
    receiver,
    workers,
    async pay(orderNumber, outcome) {
      gatewayTokens += 1;
      adapter.respond('pay', reply.json(adapterAnswer[outcome](`gw-events-${gatewayTokens}`)));
      const created = await harness.merchantRequest(merchant.productionKey, {
        method: 'POST',
        url: '/api/v1/payments',
        payload: { ...cardPayment(orderNumber), callbackUrl: `${receiver.url}/${orderNumber}` },
      });
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json().payment.status).toBe(outcome);
      return created.json().token as string;
    },
    async refund(token) {
      gatewayTokens += 1;
      adapter.respond('refund', reply.json(adapterAnswer.approved(`gw-events-refund-${gatewayTokens}`)));
      const refunded = await harness.merchantRequest(merchant.productionKey, { method: 'POST', url: '/api/v1/refunds', payload: { token } });
      expect(refunded.statusCode, refunded.body).toBe(200);
    },
    async deliverAll() {
      for (let pass = 0; pass < PASSES_MAX; pass += 1) await workers.tick();
    },
    async api(key, method, url) {
      const response = await harness.merchantRequest(key, { method, url });
      return { status: response.statusCode, body: response.json() };
    },
    async close() {
      await workers.stop();
      await receiver.close();
      await adapter.close();
      await harness.close();
    },
  };
  return fixture;
}
