import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';

const engines = await testEngines();

// Whatever a client sends, the answer is a coded 2xx/4xx, never a 5xx.
describe.each(engines)('arbitrary bodies on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
  });
  afterAll(async () => harness?.close());

  const post = (payload: string, headers: Record<string, string> = {}) =>
    harness.merchantRequest(merchant.sandboxKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload,
      headers: { 'content-type': 'application/json', ...headers },
    });

  const assertNoServerError = (response: { statusCode: number; body: string }) => {
    expect(response.statusCode, response.body).toBeLessThan(500);
    const body = JSON.parse(response.body) as { success: boolean };
    expect(typeof body.success).toBe('boolean');
  };

  it('never answers 5xx to arbitrary JSON values', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => assertNoServerError(await post(JSON.stringify(value)))),
      { numRuns: 150 },
    );
  });

  it('never answers 5xx to valid bodies with one field replaced by arbitrary JSON', async () => {
    const fields = [...Object.keys(validPaymentA), 'card', 'customer', 'recurring_data', 'bank_account', 'expires_at', 'callback_url'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), fc.jsonValue(), fc.string({ maxLength: 40 }), async (field, value, idempotencyKey) => {
        const payload = JSON.stringify({ ...validPaymentA, [field]: value });
        const headers: Record<string, string> = idempotencyKey ? { 'idempotency-key': idempotencyKey } : {};
        assertNoServerError(await post(payload, headers));
      }),
      { numRuns: 150 },
    );
  });

  it('never answers 5xx to arbitrary bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => assertNoServerError(await post(text))),
      { numRuns: 100 },
    );
  });
});
