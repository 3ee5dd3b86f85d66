import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';
import { SANDBOX_CALLBACK_POLL } from '../../support/sql.ts';

// What an Idempotency-Key costs a create (issue 24): the key is read when the request arrives and written committed by
// the statement that inserts the payment (a deferred claim), then completed with the answer. Counted on PGlite's
// client, below drizzle: every statement and every transaction the request ran.
describe('the database round trips of a payment create with an Idempotency-Key, on pglite', () => {
  let harness: Harness;
  let merchant: TestMerchant;
  const seen: string[] = [];

  beforeAll(async () => {
    harness = await startHarness('pglite');
    merchant = await harness.createMerchant();
    const client = (harness.database.db as unknown as { $client: PGlite }).$client;
    const query = client.query.bind(client);
    const transaction = client.transaction.bind(client);
    client.query = ((text: string, ...rest: unknown[]) => {
      if (!SANDBOX_CALLBACK_POLL.test(text.replace(/\s+/g, ' ').trim())) seen.push(text);
      return (query as (...all: unknown[]) => unknown)(text, ...rest);
    }) as PGlite['query'];
    client.transaction = ((callback: Parameters<PGlite['transaction']>[0]) => {
      seen.push('transaction');
      return transaction(callback);
    }) as PGlite['transaction'];
  });
  afterAll(async () => harness?.close());

  const create = (idempotencyKey: string, orderNumber: string) =>
    harness.merchantRequest(merchant.sandboxKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { ...validPaymentA, orderNumber },
      headers: { 'idempotency-key': idempotencyKey },
    });

  it('reads the key, writes it with the payment in one statement, and stores the answer: three statements, no transaction', async () => {
    expect((await create('warm-up-1', 'warm-up')).statusCode).toBe(200); // the merchant key's lookup is cached after this
    seen.length = 0;
    const created = await create('counted-1', 'counted');
    expect(created.statusCode, created.body).toBe(200);
    expect(seen.map((text) => text.replace(/\s+/g, ' '))).toEqual([
      expect.stringMatching(/^select .* from "idempotency_keys"/),
      expect.stringMatching(/^with "created" as \(insert into "payments".*"keyed" as \(insert into "idempotency_keys"/),
      expect.stringMatching(/^update "idempotency_keys" set/),
    ]);
    const replayed = await create('counted-1', 'counted');
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(created.body);
  });
});
