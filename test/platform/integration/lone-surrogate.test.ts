import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppToken, createTestProfile, openTestSession } from '../../support/core-banking.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';

const engines = await testEngines();

// A JSON \u escape can spell half a UTF-16 surrogate pair, which is not Unicode text: PostgreSQL refuses it in
// jsonb, so it once reached the database and answered 500. Every JSON body is checked when it is parsed.
describe.each(engines)('JSON bodies with a lone surrogate on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let session: string;
  let appToken: string;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
    session = await openTestSession(harness.database.db, (await createTestProfile(harness.database.db)).id);
    appToken = await createTestAppToken(harness.database.db);
  });
  afterAll(async () => harness?.close());

  const send = (url: string, body: string, headers: Record<string, string>) =>
    harness.app.inject({ method: 'POST', url, payload: body, headers: { 'content-type': 'application/json', ...headers } });
  const merchantKey = () => ({ authorization: `Bearer ${merchant.sandboxKey}` });
  const payment = (product: string) => JSON.stringify({ ...validPaymentA, orderNumber: undefined }).replace('"Order #1001"', `"${product}"`);

  it.each([
    ['a high half', 'Order \\ud800 1'],
    ['a low half', 'Order \\udc00 1'],
    ['a high half before a plain character', 'Order \\ud83dx1'],
  ])('answers 400 invalid_json to %s in a merchant request', async (_name, product) => {
    const response = await send('/api/v1/payments', payment(product), merchantKey());
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, status: 400, errors: [{ code: 'invalid_json' }] });
  });

  it('takes a whole pair (an emoji) and a literal backslash-u text', async () => {
    for (const product of ['Order \\ud83d\\ude00 1', 'Order \\\\ud800 1']) {
      const response = await send('/api/v1/payments', payment(product), merchantKey());
      expect(response.statusCode, product).toBe(200);
    }
  });

  it('answers the core envelope with 400 in the core banking API, for a value and for a property name', async () => {
    const bodies = [
      '{"value":"GB00","currency":"EUR","details":{"beneficiary_name":"Ada \\udfff"}}',
      '{"value":"GB00","currency":"EUR","details":{"\\ud800":"x"}}',
    ];
    for (const body of bodies) {
      const response = await send('/api/v1/bank_accounts/new', body, { 'session-token': session });
      expect(response.statusCode, body).toBe(400);
      expect(response.json()).toMatchObject({ success: false, status: 400, errors: [{ code: 'invalid_json' }] });
    }
    const transfer = await send(
      '/api/v2/banking/transfers',
      '{"profile_id":1,"amount":1,"currency":"EUR","direction":"credit","provider":"p\\ud800","token":"t-1","bank_account_id":1}',
      { 'app-token': appToken },
    );
    expect(transfer.statusCode).toBe(400);
  });
});
