import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServerHarness, type ServerHarness } from '../../../test/support/server-harness.ts';
import { testEngines } from '../../../test/support/databases.ts';
import {
  Payrail,
  PayrailAuthenticationError,
  PayrailConflictError,
  PayrailConnectionError,
  PayrailNotFoundError,
  PayrailRateLimitError,
  PayrailServerError,
  PayrailValidationError,
} from '../src/index.ts';
import { clientOf, hostedPayment, serverError, startProxy, type ForwardingProxy } from './support.ts';

const engines = await testEngines();

// Issue 23: retries that never pay twice (one Idempotency-Key for a POST and all its retries), backoff on what may
// pass on its own (network, 5xx, 429, a key still in use), never on another 4xx; typed errors with the request id.
describe.each(engines)('@payrail/client retries and errors against Payrail on %s', (engine) => {
  let server: ServerHarness;
  let proxy: ForwardingProxy;
  let merchantKey: string;
  let viaProxy: Payrail;

  beforeAll(async () => {
    server = await startServerHarness(engine);
    merchantKey = (await server.createMerchant('Retrying shop')).sandboxKey;
    proxy = await startProxy(server);
    viaProxy = new Payrail({ apiKey: merchantKey, baseUrl: proxy.url, maxRetries: 2 });
  });
  afterEach(() => {
    proxy.seen.length = 0;
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  const paymentsOfOrder = async (orderNumber: string) => {
    const found = [];
    for await (const payment of clientOf(server, merchantKey).payments.list({ orderNumber })) found.push(payment);
    return found;
  };
  const posts = () => proxy.seen.filter((request) => request.method === 'POST');

  it('creates one payment when the first answer is lost: the retry with the same Idempotency-Key gets the first outcome', async () => {
    proxy.plan({ kind: 'forward_then_answer', status: 500, body: serverError() });
    const created = await viaProxy.payments.create(hostedPayment('lost-answer'));
    expect(posts()).toHaveLength(2);
    const [first, second] = posts().map((request) => request.headers['idempotency-key']);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
    expect((await paymentsOfOrder('lost-answer')).map((payment) => payment.token)).toEqual([created.token]);
  });

  it('retries a 500 that never reached Payrail and creates the payment once', async () => {
    proxy.plan({ kind: 'answer', status: 500, body: serverError() });
    const created = await viaProxy.payments.create(hostedPayment('plain-500'));
    expect(posts()).toHaveLength(2);
    expect((await paymentsOfOrder('plain-500')).map((payment) => payment.token)).toEqual([created.token]);
  });

  it('sends a new Idempotency-Key for each call, and the caller’s own when it gives one', async () => {
    await viaProxy.payments.create(hostedPayment('key-a'));
    await viaProxy.payments.create(hostedPayment('key-b'), { idempotencyKey: 'order-key-b' });
    await viaProxy.payments.create(hostedPayment('key-b'), { idempotencyKey: 'order-key-b' });
    const keys = posts().map((request) => request.headers['idempotency-key']);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys.slice(1)).toEqual(['order-key-b', 'order-key-b']);
    expect(await paymentsOfOrder('key-b')).toHaveLength(1);
    expect(proxy.seen.filter((request) => request.method === 'GET').every((request) => request.headers['idempotency-key'] === undefined)).toBe(true);
  });

  it('waits the Retry-After of a 429 before it tries again', async () => {
    proxy.plan({
      kind: 'answer',
      status: 429,
      body: { success: false, errors: [{ code: 'rate_limited', message: 'slow down' }] },
      headers: { 'retry-after': '1' },
    });
    const startedAt = performance.now();
    await viaProxy.balance.retrieve();
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(950);
    expect(proxy.seen).toHaveLength(2);
  });

  it('retries 409 idempotency_key_in_use and answers the request once it finished', async () => {
    proxy.plan({ kind: 'answer', status: 409, body: { success: false, errors: [{ code: 'idempotency_key_in_use', message: 'still running' }] } });
    const created = await viaProxy.payments.create(hostedPayment('key-in-use'));
    expect(posts()).toHaveLength(2);
    expect((await paymentsOfOrder('key-in-use')).map((payment) => payment.token)).toEqual([created.token]);
  });

  it('gives up after maxRetries with the last error, a PayrailServerError', async () => {
    const failure = { kind: 'answer', status: 503, body: serverError('unavailable') } as const;
    proxy.plan(failure, failure, failure);
    const error = await viaProxy.balance.retrieve().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PayrailServerError);
    expect(error).toMatchObject({ status: 503, code: 'unavailable' });
    expect(proxy.seen).toHaveLength(3);
  });

  it('never retries a 422, a 404 or a 409 other than a key in use', async () => {
    const invalid = await viaProxy.payments.create({ ...hostedPayment('bad'), amount: 0 }).catch((caught: unknown) => caught);
    expect(invalid).toBeInstanceOf(PayrailValidationError);
    const missing = await viaProxy.payments.retrieve('f'.repeat(32)).catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(PayrailNotFoundError);
    const { token } = await viaProxy.payments.create(hostedPayment('refund-unpaid'));
    const unpaid = await viaProxy.refunds.create({ token }).catch((caught: unknown) => caught);
    expect(unpaid).toBeInstanceOf(PayrailConflictError);
    expect(unpaid).toMatchObject({ status: 409, code: 'invalid_state' });
    expect(proxy.seen).toHaveLength(4);
  });

  it('throws typed errors with the status, the code, the envelope and the request id', async () => {
    const payrail = clientOf(server, merchantKey);
    const unauthorized = await clientOf(server, 'sk_sandbox_not-a-key')
      .balance.retrieve()
      .catch((caught: unknown) => caught);
    expect(unauthorized).toBeInstanceOf(PayrailAuthenticationError);
    expect(unauthorized).toMatchObject({ status: 401, name: 'PayrailAuthenticationError', requestId: expect.stringMatching(/\S/) });

    const missing = await payrail.refunds.retrieve('0'.repeat(32)).catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(PayrailNotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', requestId: expect.stringMatching(/\S/) });
    expect((missing as PayrailNotFoundError).envelope?.errors[0]?.code).toBe('not_found');

    const invalid = await payrail.payments.create({ ...hostedPayment('invalid'), currency: 'usd' }).catch((caught: unknown) => caught);
    expect(invalid).toBeInstanceOf(PayrailValidationError);
    const validation = invalid as PayrailValidationError;
    expect(validation.status).toBe(422);
    expect(validation.requestId).toMatch(/\S/);
    expect(validation.envelope?.errors.some((item) => item.field === 'currency')).toBe(true);
    expect(validation.code).toBe(validation.envelope?.errors[0]?.code);
  });

  it('keeps a 429 the caller may not wait for as a PayrailRateLimitError with its Retry-After', async () => {
    proxy.plan({
      kind: 'answer',
      status: 429,
      body: { success: false, errors: [{ code: 'rate_limited', message: 'later' }] },
      headers: { 'retry-after': '3600' },
    });
    const error = await viaProxy.balance.retrieve().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PayrailRateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 3_600_000 });
    expect(proxy.seen).toHaveLength(1);
  });

  it('times out an attempt that gets no answer, and fails with PayrailConnectionError', async () => {
    proxy.plan({ kind: 'hang', ms: 2000 });
    const impatient = new Payrail({ apiKey: merchantKey, baseUrl: proxy.url, timeoutMs: 200, maxRetries: 0 });
    const error = await impatient.balance.retrieve().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PayrailConnectionError);
    expect(error).toMatchObject({ status: null, code: 'timeout', requestId: null });

    proxy.plan({ kind: 'hang', ms: 2000 });
    const retrying = new Payrail({ apiKey: merchantKey, baseUrl: proxy.url, timeoutMs: 200, maxRetries: 1 });
    expect((await retrying.balance.retrieve()).success).toBe(true); // the retry is forwarded
  });

  it('retries a refused connection, then reports it as PayrailConnectionError', async () => {
    const nobody = new Payrail({ apiKey: merchantKey, baseUrl: `http://127.0.0.1:${await freePort()}`, maxRetries: 1 });
    const error = await nobody.payments.create(hostedPayment('nobody')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PayrailConnectionError);
    expect(error).toMatchObject({ code: 'connection_failed', status: null });
  });
});
