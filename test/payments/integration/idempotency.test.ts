import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

describe.each(engines)('Idempotency-Key on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
  });
  afterAll(async () => harness?.close());

  const create = (key: string, idempotencyKey: string, payload: object) =>
    harness.merchantRequest(key, { method: 'POST', url: '/api/v1/payments', payload, headers: { 'idempotency-key': idempotencyKey } });
  const paymentCount = async () => {
    const [row] = await queryRows<{ total: number }>(harness.database, sql`select count(*)::int as total from payments`);
    return Number(row?.total);
  };

  it('replays the first response byte for byte for the same key and body', async () => {
    const first = await create(merchant.sandboxKey, 'replay-1', validPaymentA);
    const before = await paymentCount();
    const second = await create(merchant.sandboxKey, 'replay-1', { ...validPaymentA });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await paymentCount()).toBe(before);
  });

  it('treats a reordered body as the same body', async () => {
    const first = await create(merchant.sandboxKey, 'reorder-1', validPaymentA);
    const reordered = Object.fromEntries(Object.entries(validPaymentA).reverse());
    expect((await create(merchant.sandboxKey, 'reorder-1', reordered)).body).toBe(first.body);
  });

  it('refuses the same key with a different body with 422 idempotency_key_reused', async () => {
    await create(merchant.sandboxKey, 'reuse-1', validPaymentA);
    const response = await create(merchant.sandboxKey, 'reuse-1', { ...validPaymentA, amount: 2000 });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[0].code).toBe('idempotency_key_reused');
  });

  it('scopes keys to merchant and environment', async () => {
    const other = await harness.createMerchant('Other');
    const tokens = new Set<string>();
    for (const key of [merchant.sandboxKey, merchant.productionKey, other.sandboxKey]) {
      const response = await create(key, 'scoped-1', validPaymentA);
      expect(response.statusCode).toBe(200);
      expect(response.headers['idempotent-replayed']).toBeUndefined();
      tokens.add(response.json().token);
    }
    expect(tokens.size).toBe(3);
  });

  it('does not store validation failures', async () => {
    const invalid = await create(merchant.sandboxKey, 'invalid-first', { ...validPaymentA, product: 'x' });
    expect(invalid.statusCode).toBe(422);
    const valid = await create(merchant.sandboxKey, 'invalid-first', validPaymentA);
    expect(valid.statusCode).toBe(200);
    expect(valid.headers['idempotent-replayed']).toBeUndefined();
  });

  it('runs concurrent same-key requests once: one 200, the others 409 in use or the replay', async () => {
    const before = await paymentCount();
    const responses = await Promise.all(Array.from({ length: 8 }, () => create(merchant.sandboxKey, 'concurrent-1', validPaymentA)));
    const statuses = responses.map((response) => response.statusCode);
    const fresh = responses.filter((response) => response.statusCode === 200 && response.headers['idempotent-replayed'] === undefined);
    expect(fresh).toHaveLength(1);
    for (const response of responses) {
      if (response.statusCode === 409) expect(response.json().errors[0].code).toBe('idempotency_key_in_use');
      else if (response.statusCode === 200) expect(response.body).toBe(fresh[0]!.body);
      else throw new Error(`unexpected status ${response.statusCode}`);
    }
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    expect(await paymentCount()).toBe(before + 1);
  });

  it('answers 409 idempotency_key_in_use while the first request is still running', async () => {
    await harness.database.db.execute(
      sql`insert into idempotency_keys (merchant_id, environment, idempotency_key, request_digest, state, claim_id, lease_until)
          values (${merchant.id}, 'sandbox', 'held-1', 'x', 'in_progress', 'another-process', now() + interval '30 seconds')`,
    );
    const response = await create(merchant.sandboxKey, 'held-1', validPaymentA);
    expect(response.statusCode).toBe(409);
    expect(response.json().errors[0].code).toBe('idempotency_key_in_use');
  });

  it('does not take over a claim by its age: one in progress for two minutes whose lease is renewed still holds the key', async () => {
    await harness.database.db.execute(
      sql`insert into idempotency_keys (merchant_id, environment, idempotency_key, request_digest, state, claim_id, lease_until, created_at)
          values (${merchant.id}, 'sandbox', 'long-1', 'x', 'in_progress', 'another-process', now() + interval '20 seconds', now() - interval '2 minutes')`,
    );
    expect((await create(merchant.sandboxKey, 'long-1', validPaymentA)).statusCode).toBe(409);
  });

  it('takes over a claim whose lease lapsed (its process died)', async () => {
    await harness.database.db.execute(
      sql`insert into idempotency_keys (merchant_id, environment, idempotency_key, request_digest, state, claim_id, lease_until, created_at)
          values (${merchant.id}, 'sandbox', 'abandoned-1', 'x', 'in_progress', 'a-dead-process', now() - interval '1 second', now() - interval '40 seconds')`,
    );
    expect((await create(merchant.sandboxKey, 'abandoned-1', validPaymentA)).statusCode).toBe(200);
  });

  it('takes over a key whose claim is older than 24 hours', async () => {
    await create(merchant.sandboxKey, 'old-1', validPaymentA);
    await harness.database.db.execute(sql`update idempotency_keys set created_at = now() - interval '25 hours' where idempotency_key = 'old-1'`);
    const response = await create(merchant.sandboxKey, 'old-1', { ...validPaymentA, amount: 3000 });
    expect(response.statusCode).toBe(200);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
  });

  it.each([['a'.repeat(256)], ['has space'], ['ünïcode']])('rejects the malformed key %s with 400', async (idempotencyKey) => {
    const response = await create(merchant.sandboxKey, idempotencyKey, validPaymentA);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].code).toBe('invalid_idempotency_key');
  });
});
