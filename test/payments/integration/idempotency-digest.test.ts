import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyDigestKey, requestDigest } from '../../../src/payments/flows/idempotency-keys.ts';
import { canonicalJson } from '../../../src/platform/lib/canonical-json.ts';
import { sha256Hex } from '../../../src/platform/lib/crypto.ts';
import { createPaymentValidator } from '../../../src/payments/routes/merchant-api/payments/validate-create.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway, cardPayment } from '../../support/production-gateway.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const HARNESS_MASTER_KEY = Buffer.alloc(32, 7); // what startHarness passes
const PAYMENTS_URL = '/api/v1/payments';

describe.each(engines)('the request digest of an Idempotency-Key on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let adapter: FakeAdapter;
  let validate: ReturnType<typeof createPaymentValidator> | undefined;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
    adapter = await startFakeAdapter();
    adapter.respond('pay', (request) => reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`)));
    await addProductionGateway(harness, merchant.id, adapter);
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
  });

  const create = (idempotencyKey: string, payload: object) =>
    harness.merchantRequest(merchant.productionKey, { method: 'POST', url: PAYMENTS_URL, payload, headers: { 'idempotency-key': idempotencyKey } });
  const storedDigest = async (idempotencyKey: string) =>
    (
      await queryRows<{ request_digest: string }>(
        harness.database,
        sql`select request_digest from idempotency_keys where merchant_id = ${merchant.id} and idempotency_key = ${idempotencyKey}`,
      )
    )[0]!.request_digest;
  // The request as the service digests it: validated and normalized.
  const normalized = (body: object) => {
    validate ??= createPaymentValidator({ currencies: harness.app.payrail.currencies });
    const outcome = validate(body);
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.errors));
    return outcome.request;
  };

  it('cannot be brute-forced back to the CVV without the server secret', async () => {
    const body = cardPayment('digest-1', { cvv: '988' });
    expect((await create('digest-1', body)).statusCode).toBe(200);
    const digest = await storedDigest('digest-1');

    // The attack that recovered the CVV: SHA-256 over every candidate request, raw or normalized.
    const guesses = Array.from({ length: 1000 }, (_, index) => String(index).padStart(3, '0')).flatMap((cvv) => {
      const candidate = cardPayment('digest-1', { cvv });
      return [canonicalJson(normalized(candidate)), canonicalJson(candidate), JSON.stringify(candidate)].map((text) =>
        sha256Hex(`POST ${PAYMENTS_URL}\n${text}`),
      );
    });
    expect(guesses).not.toContain(digest);
    expect(digest).not.toBe(sha256Hex(JSON.stringify(body)));

    // Only the key derived from the master key reproduces it, and it does not depend on the CVV at all.
    const secret = idempotencyDigestKey(HARNESS_MASTER_KEY);
    expect(requestDigest(secret, 'POST', PAYMENTS_URL, normalized(body))).toBe(digest);
    expect(requestDigest(secret, 'POST', PAYMENTS_URL, normalized(cardPayment('digest-1', { cvv: '123' })))).toBe(digest);
    expect(requestDigest(idempotencyDigestKey(Buffer.alloc(32, 8)), 'POST', PAYMENTS_URL, normalized(body))).not.toBe(digest);
  });

  it('replays the first response for the same request with another CVV', async () => {
    const first = await create('digest-2', cardPayment('digest-2', { cvv: '111' }));
    const again = await create('digest-2', cardPayment('digest-2', { cvv: '222' }));
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(adapter.requestsFor('pay', first.json().token)).toHaveLength(1);
  });

  it('refuses the same key with another PAN with 422 idempotency_key_reused', async () => {
    expect((await create('digest-3', cardPayment('digest-3'))).statusCode).toBe(200);
    const otherCard = await create('digest-3', cardPayment('digest-3', { pan: '5555 5555 5555 4444' }));
    expect(otherCard.statusCode).toBe(422);
    expect(otherCard.json().errors[0].code).toBe('idempotency_key_reused');
  });
});
