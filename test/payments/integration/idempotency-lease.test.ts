import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimKey, type IdempotencyClaim, type IdempotencyScope, type LeaseTiming } from '../../../src/payments/flows/idempotency-keys.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway, cardPayment } from '../../support/production-gateway.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

// A short lease, so a lapse takes a second rather than the production 30 s.
const SHORT_LEASE: LeaseTiming = { leaseMs: 1_000, heartbeatMs: 200 };

describe.each(engines)('Idempotency-Key leases on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let adapter: FakeAdapter;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
    adapter = await startFakeAdapter();
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
  });

  const db = () => harness.database.db;
  const scopeOf = (idempotencyKey: string): IdempotencyScope => ({ merchantId: merchant.id, environment: 'sandbox', idempotencyKey });
  const claimed = async (idempotencyKey: string): Promise<IdempotencyClaim> => {
    const outcome = await claimKey(db(), scopeOf(idempotencyKey), 'digest', { timing: SHORT_LEASE });
    if (!outcome.claimed) throw new Error(`${idempotencyKey} is held`);
    return outcome.claim;
  };
  const keyRow = async (idempotencyKey: string) =>
    (
      await queryRows<{ state: string; response_body: string | null }>(
        harness.database,
        sql`select state, response_body from idempotency_keys where merchant_id = ${merchant.id} and idempotency_key = ${idempotencyKey}`,
      )
    )[0];
  const create = (key: string, idempotencyKey: string, payload: object) =>
    harness.merchantRequest(key, { method: 'POST', url: '/api/v1/payments', payload, headers: { 'idempotency-key': idempotencyKey } });

  it('keeps a claim whose lease its heartbeat renews, long past the lease', async () => {
    const holder = await claimed('renewed-1');
    await sleep(SHORT_LEASE.leaseMs * 2.5);
    const contender = await claimKey(db(), scopeOf('renewed-1'), 'digest', { timing: SHORT_LEASE });
    expect(contender).toMatchObject({ claimed: false, holder: 'running' });
    holder.stop();
  });

  it('lets a claim be taken over once its lease lapsed, and the old holder then changes nothing', async () => {
    const dead = await claimed('lapsed-1');
    dead.stop(); // its process died: nothing renews the lease
    await sleep(SHORT_LEASE.leaseMs + 300);
    const successor = await claimed('lapsed-1');
    await dead.finish({ status: 200, contentType: 'application/json', body: '"from the old holder"' });
    expect(await keyRow('lapsed-1')).toMatchObject({ state: 'in_progress', response_body: null });
    await successor.finish({ status: 200, contentType: 'application/json', body: '"from the successor"' });
    expect(await keyRow('lapsed-1')).toMatchObject({ state: 'completed', response_body: '"from the successor"' });
  });

  it('never hands over a committed claim, even when its lease lapsed: retries learn the outcome is unknown', async () => {
    const holder = await claimed('committed-1');
    await holder.commit();
    holder.stop(); // died after the payment was stored, before it could answer
    await sleep(SHORT_LEASE.leaseMs + 300);
    expect(await claimKey(db(), scopeOf('committed-1'), 'digest', { timing: SHORT_LEASE })).toMatchObject({ claimed: false, holder: 'outcome_unknown' });
    const paymentCount = async () => (await queryRows<{ n: number }>(harness.database, sql`select count(*)::int as n from payments`))[0]!.n;
    const before = await paymentCount();
    const retry = await create(merchant.sandboxKey, 'committed-1', validPaymentA);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().errors[0].code).toBe('idempotency_outcome_unknown');
    expect(await paymentCount()).toBe(before);
  });

  it('takes over, over HTTP, a claim whose lease lapsed; answers 409 while the lease is live', async () => {
    const hold = (idempotencyKey: string, lease: string) =>
      db().execute(
        sql`insert into idempotency_keys (merchant_id, environment, idempotency_key, request_digest, state, claim_id, lease_until)
            values (${merchant.id}, 'sandbox', ${idempotencyKey}, 'x', 'in_progress', 'a-dead-process', now() + ${lease}::interval)`,
      );
    await hold('http-lapsed-1', '-1 second');
    await hold('http-live-1', '30 seconds');
    expect((await create(merchant.sandboxKey, 'http-lapsed-1', validPaymentA)).statusCode).toBe(200);
    const live = await create(merchant.sandboxKey, 'http-live-1', validPaymentA);
    expect(live.statusCode).toBe(409);
    expect(live.json().errors[0].code).toBe('idempotency_key_in_use');
  });

  it('releases the key of a request that failed before anything was stored or sent', async () => {
    const production = await harness.createMerchant('No gateway yet');
    const refused = await create(production.productionKey, 'no-gateway-1', cardPayment('release-1'));
    expect(refused.statusCode).toBe(422);
    await addProductionGateway(harness, production.id, adapter);
    adapter.respond('pay', (request) => reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`)));
    const retried = await create(production.productionKey, 'no-gateway-1', cardPayment('release-1'));
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.json().payment.status).toBe('approved');
  });
});
