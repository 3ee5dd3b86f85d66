import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURE_CODE_ATTEMPTS_MAX } from '../../../src/payments/domain/pending-step.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { cardPayment } from '../../support/production-gateway.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

// The secure code step against a production gateway whose adapter the test scripts: the request shapes and
// signatures, the per-method settings, Payrail's own limits, and adapters that answer badly.
describe.each(engines)('secure code steps through a scripted adapter on %s', (engine) => {
  let harness: Harness;
  let adapter: FakeAdapter;
  let merchant: { id: number; productionKey: string };
  let signKey: string;

  beforeAll(async () => {
    harness = await startHarness(engine);
    adapter = await startFakeAdapter();
    merchant = await harness.createMerchant('OTP shop');
    signKey = randomBytes(16).toString('hex');
    const settings = {
      api_key: 'ak_live_otp',
      sign_key: signKey,
      sandbox: false,
      validate_signature: true,
      gateway_settings: {
        processing_method: 'http_requests',
        full_link: adapter.url,
        methods: {
          pay: { response_timeout: 5, final_waiting_seconds: 60 },
          confirm_secure_code: { response_timeout: 1, final_waiting_seconds: 30 },
          resend_otp: { response_timeout: 1 },
        },
      },
    };
    const created = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchant.id}/gateways`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
      payload: { alias: 'otp-acquirer', environment: 'production', settings },
    });
    expect(created.statusCode).toBe(200);
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
    harness.merchantRequest(merchant.productionKey, { method, url, ...(payload === undefined ? {} : { payload }) });
  const askForCode = (secureCode: Record<string, unknown>, gatewayToken = `gw-${randomBytes(4).toString('hex')}`) => {
    adapter.respond('pay', reply.json(adapterAnswer.pending(gatewayToken, { secure_code_request: secureCode })));
    return gatewayToken;
  };
  const payWithCard = async (orderNumber: string) => {
    const created = await call('POST', '/api/v1/payments', cardPayment(orderNumber));
    expect(created.statusCode).toBe(200);
    return created.json() as { token: string; payment: { status: string }; pendingStep?: any };
  };
  const statusChecksOf = async (token: string) =>
    (
      await queryRows<{ count: number }>(
        harness.database,
        sql`select count(*)::int as count from outbox o join payments p on p.id = o.payment_id where p.token = ${token} and o.topic = 'status_check' and o.done_at is null`,
      )
    )[0]!.count;

  it('sends confirm_secure_code in its shape, signed, and reads the answer like a /pay answer', async () => {
    const gatewayToken = askForCode({ length: 4, kind: 'app', message: 'Open the Acme Bank app', resend_allowed: false });
    const created = await payWithCard('otp-shape');
    expect(created.payment.status).toBe('pending');
    expect(created.pendingStep).toEqual({
      type: 'secure_code',
      secure_code: {
        length: 4,
        kind: 'app',
        message: 'Open the Acme Bank app',
        attempts_left: SECURE_CODE_ATTEMPTS_MAX,
        resend_allowed: false,
        resends_left: 0,
        resend_available_in_s: null,
      },
    });
    adapter.respond('confirm_secure_code', reply.json(adapterAnswer.approved(gatewayToken)));
    const confirmed = await call('POST', `/api/v1/payments/${created.token}/secure_code`, { code: ' 4711 ' });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().payment).toMatchObject({ status: 'approved', pending_step: null, gateway_token: gatewayToken });

    const [sent] = adapter.requestsFor('confirm_secure_code', created.token);
    expect(sent!.body).toEqual({
      method_name: 'confirm_secure_code',
      payment: { token: created.token, gateway_token: gatewayToken },
      params: { code: '4711' },
      settings: expect.objectContaining({ api_key: 'ak_live_otp' }),
    });
    expect(sent!.headers['x-signature']).toBe(createHmac('sha512', signKey).update(sent!.rawBody).digest('hex'));
    const logs = await queryRows<{ kind: string; entry: string }>(
      harness.database,
      sql`select l.kind, l.entry::text as entry from payment_logs l join payments p on p.id = l.payment_id where p.token = ${created.token} order by l.id`,
    );
    expect(logs.map((log) => log.kind)).toContain('confirm_secure_code');
    expect(logs.map((log) => log.entry).join('\n')).not.toContain('4711');
  });

  it('refuses a resend the provider does not offer, and a code on a payment that waits for none', async () => {
    askForCode({ resend_allowed: false });
    const created = await payWithCard('otp-no-resend');
    const resend = await call('POST', `/api/v1/payments/${created.token}/resend_otp`);
    expect(resend.statusCode).toBe(409);
    expect(resend.json().errors[0].code).toBe('otp_resend_not_allowed');
    expect(adapter.requestsFor('resend_otp', created.token)).toHaveLength(0);

    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-plain')));
    const plain = await payWithCard('otp-none');
    const code = await call('POST', `/api/v1/payments/${plain.token}/secure_code`, { code: '1234' });
    expect(code.statusCode).toBe(409);
    expect(code.json().errors[0]).toMatchObject({ code: 'invalid_state' });
    expect((await call('POST', `/api/v1/payments/${plain.token}/next_step`, { fields: {} })).statusCode).toBe(409);
  });

  it(`forwards at most ${SECURE_CODE_ATTEMPTS_MAX} codes to an adapter that never ends the step`, async () => {
    const gatewayToken = askForCode({});
    adapter.respond('confirm_secure_code', reply.json(adapterAnswer.pending(gatewayToken, { secure_code_request: { message: 'Try again' } })));
    const created = await payWithCard('otp-cap');
    for (let attempt = 1; attempt <= SECURE_CODE_ATTEMPTS_MAX; attempt += 1) {
      const answered = await call('POST', `/api/v1/payments/${created.token}/secure_code`, { code: `code${attempt}` });
      expect(answered.statusCode).toBe(200);
      expect(answered.json().payment.pending_step.secure_code).toMatchObject({ message: 'Try again', attempts_left: SECURE_CODE_ATTEMPTS_MAX - attempt });
    }
    const refused = await call('POST', `/api/v1/payments/${created.token}/secure_code`, { code: 'code6' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors[0].code).toBe('secure_code_attempts_exhausted');
    expect(adapter.requestsFor('confirm_secure_code', created.token)).toHaveLength(SECURE_CODE_ATTEMPTS_MAX);
  });

  it('stops at attempts_left 0 as the adapter counts', async () => {
    const gatewayToken = askForCode({ attempts_left: 1 });
    adapter.respond('confirm_secure_code', reply.json(adapterAnswer.pending(gatewayToken, { secure_code_request: { attempts_left: 0 } })));
    const created = await payWithCard('otp-adapter-count');
    expect((await call('POST', `/api/v1/payments/${created.token}/secure_code`, { code: '1111' })).statusCode).toBe(200);
    const refused = await call('POST', `/api/v1/payments/${created.token}/secure_code`, { code: '2222' });
    expect(refused.json().errors[0].code).toBe('secure_code_attempts_exhausted');
  });

  it('bounds confirm_secure_code by its own response_timeout: 504, the step stands, a status check is on its way', async () => {
    const gatewayToken = askForCode({ length: 6 });
    adapter.respond('confirm_secure_code', reply.sleep(2500, reply.json(adapterAnswer.approved(gatewayToken))));
    const created = await payWithCard('otp-timeout');
    const startedAt = Date.now();
    const timedOut = await call('POST', `/api/v1/payments/${created.token}/secure_code`, { code: '123456' });
    expect(Date.now() - startedAt).toBeLessThan(2400); // response_timeout 1 s, not pay's 5 s
    expect(timedOut.statusCode).toBe(504);
    expect(timedOut.json().errors[0].code).toBe('adapter_unavailable');
    const payment = (await call('GET', `/api/v1/payments/${created.token}`)).json().payment;
    expect(payment).toMatchObject({ status: 'pending', pending_step: { type: 'secure_code', secure_code: { attempts_left: SECURE_CODE_ATTEMPTS_MAX - 1 } } });
    expect(await statusChecksOf(created.token)).toBeGreaterThanOrEqual(1);
  });

  it('queues a status check when the answer leaves the payment pending without a step', async () => {
    const gatewayToken = askForCode({});
    adapter.respond('confirm_secure_code', reply.json(adapterAnswer.pending(gatewayToken, { details: 'checking the code' })));
    const created = await payWithCard('otp-processing');
    await harness.database.db.execute(
      sql`update outbox set done_at = now() where topic = 'status_check' and payment_id = (select id from payments where token = ${created.token})`,
    );
    const answered = await call('POST', `/api/v1/payments/${created.token}/secure_code`, { code: '1234' });
    expect(answered.json().payment).toMatchObject({ status: 'pending', pending_step: null });
    expect(await statusChecksOf(created.token)).toBe(1);
  });

  it('keeps a payment pending without a step when the adapter asks for one that cannot be shown', async () => {
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-bad-step', { secure_code_request: { length: 40 } })));
    const created = await payWithCard('otp-bad');
    expect(created.payment.status).toBe('pending');
    expect(created.pendingStep).toBeUndefined();
    expect((await call('GET', `/api/v1/payments/${created.token}`)).json().payment.pending_step).toBeNull();
  });

  it('declines on a declined answer, with its reason, and ends the step', async () => {
    const gatewayToken = askForCode({});
    adapter.respond('confirm_secure_code', reply.json(adapterAnswer.declined(gatewayToken, { details: 'code expired' })));
    const created = await payWithCard('otp-declined');
    const declined = await call('POST', `/api/v1/payments/${created.token}/secure_code`, { code: '1234' });
    expect(declined.json().payment).toMatchObject({ status: 'declined', pending_step: null, decline_reason: 'gateway response error: code expired' });
  });
});
