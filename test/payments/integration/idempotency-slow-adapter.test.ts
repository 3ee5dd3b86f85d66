import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/platform/database.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness } from '../../support/harness.ts';
import { addProductionGateway, cardPayment } from '../../support/production-gateway.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

// The app's lease, scaled down 20 times (30 s lease, 10 s heartbeat in production): the /pay answer takes more than
// two leases, and the retry comes after the first lease would have lapsed without its renewal. (A claim once counted
// as abandoned after a fixed 60 s while an adapter may take 120 s to answer.)
const LEASE_TIMING = { leaseMs: 1_500, heartbeatMs: 500 };
const PAY_ANSWER_AFTER_MS = 4_000; // at the earliest, and never before the retry has its answer
const RETRY_AFTER_MS = 3_100;
const RESPONSE_TIMEOUT_S = 120; // the longest an adapter may take (spec 2.10)

describe('an Idempotency-Key held while a production adapter takes longer than two leases to answer /pay', () => {
  it('answers a retry after the first lease with 409 idempotency_key_in_use without a second payment or /pay, then replays the first response byte for byte', {
    timeout: 60_000,
  }, async () => {
    await Promise.all(engines.map((engine) => retryDuringSlowPay(engine)));
  });
});

async function retryDuringSlowPay(engine: Engine): Promise<void> {
  const harness = await startHarness(engine, {}, { idempotencyLeaseTiming: LEASE_TIMING });
  const adapter = await startFakeAdapter();
  try {
    const merchant = await harness.createMerchant();
    await addProductionGateway(harness, merchant.id, adapter, { response_timeout: RESPONSE_TIMEOUT_S });
    // The adapter answers when the test says so, after the retry has been answered: a loaded machine may take longer
    // than any fixed delay to get the retry through, and a retry that came after the answer would prove nothing.
    const answerPay = Promise.withResolvers<void>();
    adapter.respond('pay', async (request) => {
      await answerPay.promise;
      return reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`));
    });
    const create = () =>
      harness.merchantRequest(merchant.productionKey, {
        method: 'POST',
        url: '/api/v1/payments',
        payload: cardPayment('slow-1'),
        headers: { 'idempotency-key': 'slow-pay-1' },
      });
    const paymentCount = async () =>
      (await queryRows<{ n: number }>(harness.database, sql`select count(*)::int as n from payments where merchant_id = ${merchant.id}`))[0]!.n;

    const startedAt = Date.now();
    const first = create();
    await sleep(RETRY_AFTER_MS);
    const retry = await create();
    expect(retry.statusCode, engine).toBe(409);
    expect(retry.json().errors[0].code).toBe('idempotency_key_in_use');
    expect(await paymentCount()).toBe(1);
    expect(adapter.requestsFor('pay')).toHaveLength(1);
    await sleep(Math.max(0, PAY_ANSWER_AFTER_MS - (Date.now() - startedAt)));
    answerPay.resolve();

    const answered = await first;
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(PAY_ANSWER_AFTER_MS);
    expect(answered.statusCode, engine).toBe(200);
    expect(answered.json().payment.status).toBe('approved');
    const replayed = await create();
    expect(replayed.statusCode).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(answered.body);
    expect(await paymentCount()).toBe(1);
    expect(adapter.requestsFor('pay')).toHaveLength(1);
  } finally {
    await adapter.close();
    await harness.close();
  }
}
