import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_NESTING_DEPTH_MAX } from '../../../src/platform/lib/json-body-parser.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const nested = (depth: number, leaf = '1') => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe.each(engines)('deeply nested JSON bodies on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let token: string;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
    const created = await harness.merchantRequest(merchant.sandboxKey, { method: 'POST', url: '/api/v1/payments', payload: validPaymentA });
    token = created.json().token;
  });
  afterAll(async () => harness?.close());

  const post = (url: string, body: string, idempotencyKey?: string) =>
    harness.merchantRequest(merchant.sandboxKey, {
      method: 'POST',
      url,
      payload: body,
      headers: { 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    });
  const expectInvalidJson = (response: Awaited<ReturnType<typeof post>>) => {
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, status: 400, errors: [{ code: 'invalid_json' }] });
  };

  it('answers 400 invalid_json, not 500, to a 10,000-deep body on notifications/resend with an Idempotency-Key', async () => {
    for (const body of [nested(10_000), nestedObject(10_000)]) {
      expectInvalidJson(await post(`/api/v1/payments/${token}/notifications/resend`, body, `deep-${body.length}`));
    }
    const keys = await queryRows<{ n: number }>(harness.database, sql`select count(*)::int as n from idempotency_keys where idempotency_key like 'deep-%'`);
    expect(keys[0]!.n).toBe(0);
  });

  it('answers 400 invalid_json to a 10,000-deep payment create, and creates nothing', async () => {
    const deepCustomer = `{${JSON.stringify(validPaymentA).slice(1, -1)},"customer":${nestedObject(10_000)}}`;
    expectInvalidJson(await post('/api/v1/payments', deepCustomer, 'deep-create'));
    expectInvalidJson(await post('/api/v1/payments', nested(100_000)));
  });

  it(`accepts nesting up to ${JSON_NESTING_DEPTH_MAX} levels, with brackets inside strings not counted`, async () => {
    const brackets = '[{'.repeat(500);
    const created = await post('/api/v1/payments', JSON.stringify({ ...validPaymentA, product: `Order ${brackets}`.slice(0, 200) }), 'deep-ok');
    expect(created.statusCode).toBe(200);
    const atLimit = await post(`/api/v1/payments/${token}/notifications/resend`, nested(JSON_NESTING_DEPTH_MAX));
    expect(atLimit.statusCode).not.toBe(400);
    expectInvalidJson(await post(`/api/v1/payments/${token}/notifications/resend`, nested(JSON_NESTING_DEPTH_MAX + 1)));
  });
});
