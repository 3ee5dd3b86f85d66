import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, signBody } from '@payrail/adapter-kit';
import { startAcmeSimulator, type RunningAcmeSimulator } from '../simulator/server.ts';
import { acmeSignature } from '../simulator/webhooks.ts';
import { ACME_TEST_CARDS } from '../simulator/test-cards.ts';
import { startExampleAdapter, type RunningExampleAdapter } from '../src/server.ts';

const API_KEY = `acme_test_${randomBytes(8).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const SIGN_KEY = randomBytes(16).toString('hex'); // exactly 32 characters, as Payrail requires
const CVV = '737';

// What these tests read of an answer, the adapter's or Acme's; toMatchObject checks the rest.
interface Answer {
  logs?: unknown[];
  id?: string;
}
interface ChargeList {
  data: { metadata: Record<string, string> }[];
}

// The adapter and the simulator alone, no Payrail: the kit's conformance suite, and what each refuses.
describe('the example Acme Pay adapter and its simulator on their own', () => {
  let simulator: RunningAcmeSimulator;
  let adapter: RunningExampleAdapter;

  beforeAll(async () => {
    simulator = await startAcmeSimulator({
      accounts: [{ apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET }],
      processingDelayMs: 200,
      webhookRetryDelayMs: 100,
      webhookAttemptsMax: 2,
      recordsMax: 50,
    });
    adapter = await startExampleAdapter({ signKeys: [SIGN_KEY], sealKey: randomBytes(32).toString('hex'), logLevel: false });
  });
  afterAll(async () => {
    await adapter?.close();
    await simulator?.close();
  });

  const providerKeys = () => ({ acme_base_url: simulator.url, acme_webhook_secret: WEBHOOK_SECRET });
  const settings = () => ({
    api_key: API_KEY,
    sign_key: SIGN_KEY,
    validate_signature: true,
    gateway_settings: { processing_method: 'http_requests', full_link: adapter.url, ...providerKeys() },
  });
  const post = async (url: string, bodyText: string, headers: Record<string, string>) => {
    const response = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: bodyText });
    return { statusCode: response.statusCode, body: (await response.body.json()) as Answer };
  };
  const statusBody = (token: string, signKey = SIGN_KEY) =>
    JSON.stringify({ method_name: 'status', payment: { token }, settings: { ...settings(), sign_key: signKey } });

  it('passes the adapter kit’s conformance suite (pay, payout, status, refund, decline reason, callback)', async () => {
    const report = await runConformance({
      url: adapter.url,
      signKey: SIGN_KEY,
      apiKey: API_KEY,
      settings: { gateway_settings: providerKeys() }, // where Payrail keeps provider keys, as `--settings` takes them
      providerUrlSetting: 'gateway_settings.acme_base_url', // the suite's provider stub stands there for a few calls
      timeoutMs: 5000,
      currency: 'EUR',
      cardApprove: ACME_TEST_CARDS.authorised,
      cardDecline: ACME_TEST_CARDS.cardDeclined,
      cardCallback: ACME_TEST_CARDS.processingAuthorised,
      callbackWaitMs: 5000,
    });
    const failed = report.checks.filter((check) => check.outcome === 'fail');
    expect(failed, JSON.stringify(failed, null, 2)).toEqual([]);
    expect(report.passed).toBe(true);
    const outcomes = Object.fromEntries(report.checks.map((check) => [check.name, check.outcome]));
    expect(outcomes).toMatchObject({
      'provider-5xx/answer': 'pass', // Acme answering 503: result=false, code 408
      'provider-timeout/answer': 'pass', // Acme silent: code 408 within response_timeout
      'signature/wrong/not-processed': 'pass', // no request reached Acme
      'signature/missing/not-processed': 'pass',
      'amount/JPY-1000/status': 'pass',
      'amount/EUR-19.99/status': 'pass',
      'amount/KWD-12.345/pay': 'skip', // Acme does not take KWD
      'callback/pending-card': 'pass',
    });
  });

  it('refuses a call without X-SIGNATURE, with a wrong one, or signed with a sign_key it was not configured with', async () => {
    const token = `unsigned-${randomBytes(4).toString('hex')}`;
    const bodyText = statusBody(token);
    const foreignKey = randomBytes(16).toString('hex');
    const foreignBody = statusBody(token, foreignKey);
    for (const [text, headers] of [
      [bodyText, {}],
      [bodyText, { 'x-signature': signBody(SIGN_KEY, `${bodyText} `) }],
      [foreignBody, { 'x-signature': signBody(foreignKey, foreignBody) }],
    ] as const) {
      const answer = await post(`${adapter.url}/status`, text, headers);
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toMatchObject({ result: false, error: 'invalid X-SIGNATURE' });
    }
    const signed = await post(`${adapter.url}/status`, bodyText, { 'x-signature': signBody(SIGN_KEY, bodyText) });
    expect(signed.body).toMatchObject({ result: false, code: 408, error: expect.stringContaining('no charge or payout with this reference') });
  });

  it('answers result=false with Acme’s error when Acme refuses the request (a currency it does not take)', async () => {
    const bodyText = JSON.stringify({
      method_name: 'pay',
      params: { customer: { email: 'ada@example.com', ip: '203.0.113.7' }, pan: ACME_TEST_CARDS.authorised, cvv: CVV, expires: '12/30' },
      payment: { token: `nok-${randomBytes(4).toString('hex')}`, merchant_private_key: 'mk_test', gateway_amount: 500, gateway_currency: 'NOK' },
      settings: settings(),
      processing_url: 'https://pay.example/return',
      callback_url: 'https://pay.example/callback',
    });
    const answer = await post(`${adapter.url}/pay`, bodyText, { 'x-signature': signBody(SIGN_KEY, bodyText) });
    expect(answer.body).toMatchObject({ result: false, error: expect.stringContaining('Acme Pay refused the request (HTTP 400') });
    expect(answer.body.logs?.[0]).toMatchObject({ kind: 'pay', status: 400, request: { url: `${simulator.url}/v2/charges` } });
    expect(JSON.stringify(answer.body.logs)).not.toContain(ACME_TEST_CARDS.authorised);
  });

  it('refuses a webhook whose signature does not verify, is too old, or whose context it did not seal', async () => {
    const event = (metadata: Record<string, string>) =>
      JSON.stringify({
        id: 'evt_forged',
        type: 'charge.updated',
        created: Math.floor(Date.now() / 1000),
        data: {
          object: {
            id: 'ch_forged',
            object: 'charge',
            amount_cents: 100,
            currency_code: 'eur',
            state: 'authorised',
            refusal_code: null,
            reference: 'x',
            next_action: null,
            metadata,
          },
        },
      });
    const webhook = (bodyText: string, signature: string) => post(adapter.webhookUrl, bodyText, { 'acme-signature': signature });
    const foreign = event({ payrail_context: 'v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(await webhook(foreign, acmeSignature(WEBHOOK_SECRET, foreign, Math.floor(Date.now() / 1000)))).toMatchObject({
      statusCode: 400,
      body: { received: false },
    });

    // A real sealed context, from a real charge: only the signature is wrong.
    const token = `hook-${randomBytes(4).toString('hex')}`;
    const payText = JSON.stringify({
      method_name: 'pay',
      params: { customer: { email: 'ada@example.com', ip: '203.0.113.7' }, pan: ACME_TEST_CARDS.processingAuthorised, cvv: CVV, expires: '12/30' },
      payment: { token, merchant_private_key: 'mk_test', gateway_amount: 500, gateway_currency: 'EUR' },
      settings: settings(),
      processing_url: 'https://pay.example/return',
      callback_url: 'http://127.0.0.1:9/unreachable',
    });
    await post(`${adapter.url}/pay`, payText, { 'x-signature': signBody(SIGN_KEY, payText) });
    const charge = (await (
      await request(`${simulator.url}/v2/charges?reference=${token}`, { headers: { authorization: `Bearer ${API_KEY}` } })
    ).body.json()) as ChargeList;
    const sealed = event(charge.data[0]?.metadata ?? {});
    const now = Math.floor(Date.now() / 1000);
    expect((await webhook(sealed, acmeSignature('whsec_not_the_secret_at_all', sealed, now))).statusCode).toBe(401);
    expect((await webhook(sealed, acmeSignature(WEBHOOK_SECRET, sealed, now - 3600))).statusCode).toBe(401);
    expect((await webhook(sealed, 't=1,v1=zz')).statusCode).toBe(401);
    // Signed right: verified, then Payrail is unreachable, so Acme is asked to retry.
    expect(await webhook(sealed, acmeSignature(WEBHOOK_SECRET, sealed, now))).toMatchObject({ statusCode: 502, body: { received: false } });
  });

  it('simulates Acme’s own rules: an API key, idempotency keys bound to one body, and a bound on stored charges', async () => {
    const charge = (key: string | null, body: Record<string, unknown>, idempotencyKey?: string) =>
      post(`${simulator.url}/v2/charges`, JSON.stringify(body), {
        ...(key === null ? {} : { authorization: `Bearer ${key}` }),
        ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
      });
    const body = (amount: number) => ({
      amount_cents: amount,
      currency_code: 'eur',
      card: { number: ACME_TEST_CARDS.authorised, exp_month: 12, exp_year: 2030, cvc: CVV },
      reference: `sim-${randomBytes(4).toString('hex')}`,
    });
    expect(await charge(null, body(100))).toMatchObject({ statusCode: 401, body: { error: { type: 'authentication_error' } } });
    expect(await charge('acme_wrong_key', body(100))).toMatchObject({ statusCode: 401 });

    const first = body(100);
    const created = await charge(API_KEY, first, 'idem-1');
    expect(created).toMatchObject({ statusCode: 201, body: { state: 'authorised' } });
    expect(await charge(API_KEY, first, 'idem-1')).toMatchObject({ statusCode: 200, body: { id: created.body.id } });
    expect(await charge(API_KEY, body(200), 'idem-1')).toMatchObject({ statusCode: 409, body: { error: { code: 'idempotency_key_reused' } } });

    for (let index = 0; index < 50; index += 1) expect((await charge(API_KEY, body(300 + index))).statusCode).toBe(201);
    const evicted = await request(`${simulator.url}/v2/charges/${created.body.id}`, { headers: { authorization: `Bearer ${API_KEY}` } });
    await evicted.body.dump();
    expect(evicted.statusCode).toBe(404); // 50 newer charges pushed it out of a 50-record store
  });
});
