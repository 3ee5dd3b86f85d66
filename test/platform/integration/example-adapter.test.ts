import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleAdapter, type RunningExampleAdapter } from '../../../packages/example-adapter/src/server.ts';
import { startAcmeSimulator, type RunningAcmeSimulator } from '../../../packages/example-adapter/simulator/server.ts';
import { ACME_TEST_CARDS } from '../../../packages/example-adapter/simulator/test-cards.ts';
import { addGateway } from '../../support/callback-merchant.ts';
import { testEngines } from '../../support/databases.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();

const API_KEY = `acme_test_${randomBytes(8).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const SIGN_KEY = randomBytes(16).toString('hex'); // exactly 32 characters, as Payrail requires
const PROCESSING_DELAY_MS = 400;
const SLOW_RESPONSE_MS = 2500; // longer than the 1 s the adapter waits for Acme under a 2 s pay response_timeout
const CVV = '737';

// Payrail, the example Acme Pay adapter and the Acme Pay simulator, each a real HTTP server: every payment below
// goes Payrail → adapter (X-SIGNATURE) → Acme, and back by the answer, by Acme's webhook turned into a Payrail
// callback (JWT + secure), or by Payrail's status checker polling /status. The adapter and simulator on their own
// are tested in packages/example-adapter/test.
describe.each(engines)('the example Acme Pay adapter between Payrail and the Acme simulator, on %s', (engine) => {
  let server: ServerHarness;
  let simulator: RunningAcmeSimulator;
  let adapter: RunningExampleAdapter;
  let callbacksOnly: { productionKey: string }; // its gateway has no status checker: only callbacks settle its payments
  let polled: { productionKey: string }; // its gateway polls /status

  beforeAll(async () => {
    server = await startServerHarness(engine);
    simulator = await startAcmeSimulator({
      accounts: [{ apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET }],
      processingDelayMs: PROCESSING_DELAY_MS,
      slowResponseMs: SLOW_RESPONSE_MS,
      webhookRetryDelayMs: 200,
    });
    adapter = await startExampleAdapter({
      signKeys: [SIGN_KEY],
      sealKey: randomBytes(32).toString('hex'),
      callbackDispatcher: server.dispatcher, // trusts the harness's self-signed certificate
      logLevel: false,
    });
    callbacksOnly = await acmeMerchant({ statusChecker: false });
    polled = await acmeMerchant({ statusChecker: true });
  });
  afterAll(async () => {
    await adapter?.close();
    await simulator?.close();
    await server?.close();
  });

  const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

  // A production merchant whose one gateway is the example adapter; provider keys as an operator registers them.
  const acmeMerchant = async (options: { statusChecker: boolean; payTimeoutS?: number }) => {
    const merchant = await server.createMerchant('Acme merchant');
    await addGateway(server, merchant.id, 'acme', {
      api_key: API_KEY,
      sign_key: SIGN_KEY,
      sandbox: false,
      host2host: true,
      validate_signature: true,
      gateway_settings: {
        processing_method: 'http_requests',
        full_link: adapter.url,
        acme_base_url: simulator.url,
        acme_webhook_secret: WEBHOOK_SECRET,
        methods: {
          // The first status check waits out response_timeout: one that ran during a slow /pay could approve the payment
          // before /pay answered, as it may in production, and this test reads the answer of /pay.
          pay: {
            response_timeout: options.payTimeoutS ?? 10,
            final_waiting_seconds: options.payTimeoutS === undefined ? 1 : options.payTimeoutS + 1,
            enable_status_checker: options.statusChecker,
          },
          payout: { response_timeout: 5, final_waiting_seconds: 1, enable_status_checker: options.statusChecker },
          status: { response_timeout: 5 },
          refund: { response_timeout: 5 },
        },
        status_checker_time_rates: { '1-': 1 },
      },
    });
    return merchant;
  };

  const pay = async (key: string, pan: string, amount = 1999) => {
    const created = await server.call('POST', '/api/v1/payments', {
      key,
      body: {
        product: 'Order #42',
        amount,
        currency: 'EUR',
        callbackUrl: 'https://merchant.example/callback',
        orderNumber: `acme-${randomBytes(4).toString('hex')}`,
        card: { pan, expires: '12/2030', holder: 'Ada Lovelace', cvv: CVV },
        customer: { email: 'ada@example.com', ip: '203.0.113.7', first_name: 'Ada', last_name: 'Lovelace', country: 'GB' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body as { token: string; payment: { status: string }; redirectRequest?: { url: string; type: string } };
  };
  const paymentOf = async (key: string, token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key })).body.payment;
  const acme = async (path: string) => {
    const response = await request(`${simulator.url}${path}`, { headers: { authorization: `Bearer ${API_KEY}` } });
    return (await response.body.json()) as any;
  };
  const chargeFor = async (token: string) => (await acme(`/v2/charges?reference=${token}`)).data[0];
  const deliveriesFor = (objectId: string) => simulator.webhookDeliveries.filter((delivery) => delivery.objectId === objectId);

  it('approves a Host-to-Host payment: amount, currency, card and customer mapped to an Acme charge, the card masked in the logs', async () => {
    const created = await pay(callbacksOnly.productionKey, ACME_TEST_CARDS.authorised);
    expect(created.payment.status).toBe('approved');
    const charge = await chargeFor(created.token);
    expect(charge).toMatchObject({ state: 'authorised', amount_cents: 1999, currency_code: 'eur', card: { last4: '1111', exp_month: 12, exp_year: 2030 } });
    expect(charge.metadata).toMatchObject({ payrail_token: created.token, payrail_context: expect.stringMatching(/^v1\./) });
    const payment = await paymentOf(callbacksOnly.productionKey, created.token);
    // Payrail stores its own log of the /pay call, then each log item the adapter answered with.
    const payLogs = payment.interaction_logs.filter((log: { kind: string }) => log.kind === 'pay').map((log: { entry: unknown }) => log.entry);
    const acmeLog = payLogs.find((log: any) => log.request?.url === `${simulator.url}/v2/charges`);
    expect(acmeLog, JSON.stringify(payLogs)).toMatchObject({ status: 201, request: { body: { amount_cents: 1999, reference: created.token } } });
    expect(acmeLog.request.body.card.number).toBe('411111******1111');
    expect(acmeLog.request.body.card).not.toHaveProperty('cvc');
    expect(acmeLog.request.body.metadata.payrail_context).toBe('[sealed]');
    const stored = JSON.stringify(payment);
    expect(stored).not.toContain(ACME_TEST_CARDS.authorised);
    expect(stored).not.toContain(API_KEY);
    expect(stored).not.toContain(SIGN_KEY);
    expect(stored).not.toContain(WEBHOOK_SECRET); // a provider key named like a secret, in Payrail's own /pay log
  });

  it.each([
    [ACME_TEST_CARDS.insufficientFunds, 'insufficient_funds', 'Insufficient funds'],
    [ACME_TEST_CARDS.cardDeclined, 'card_declined', 'Card declined by the issuer'],
    [ACME_TEST_CARDS.incorrectCvc, 'incorrect_cvc', 'Incorrect CVV'],
  ])('declines %s (Acme refusal %s) with the mapped reason', async (pan, refusalCode, reason) => {
    const created = await pay(callbacksOnly.productionKey, pan);
    expect(created.payment.status).toBe('declined');
    expect((await chargeFor(created.token)).refusal_code).toBe(refusalCode);
    expect(await paymentOf(callbacksOnly.productionKey, created.token)).toMatchObject({
      status: 'declined',
      decline_reason: `gateway response error: ${reason}`,
    });
  });

  it('approves a processing charge by Acme’s webhook, turned into a Payrail callback Payrail verifies', async () => {
    const created = await pay(callbacksOnly.productionKey, ACME_TEST_CARDS.processingAuthorised);
    expect(created.payment.status).toBe('pending');
    await eventually(async () => (await paymentOf(callbacksOnly.productionKey, created.token)).status).toBe('approved');
    const charge = await chargeFor(created.token);
    expect(deliveriesFor(charge.id)).toMatchObject([{ type: 'charge.updated', delivered: true, lastStatusCode: 200 }]);
    const payment = await paymentOf(callbacksOnly.productionKey, created.token);
    expect(payment.interaction_logs.map((log: { kind: string }) => log.kind)).toContain('callback');
    expect(payment.interaction_logs.map((log: { kind: string }) => log.kind)).not.toContain('status');
  });

  it('declines a processing charge by webhook with the refusal mapped to a reason', async () => {
    const created = await pay(callbacksOnly.productionKey, ACME_TEST_CARDS.processingRefused);
    expect(created.payment.status).toBe('pending');
    await eventually(async () => (await paymentOf(callbacksOnly.productionKey, created.token)).status).toBe('declined');
    expect((await paymentOf(callbacksOnly.productionKey, created.token)).decline_reason).toBe('gateway response error: Do not honor');
  });

  it('resolves a charge Acme never announces through Payrail’s status checker polling /status', async () => {
    const created = await pay(polled.productionKey, ACME_TEST_CARDS.processingSilent);
    expect(created.payment.status).toBe('pending');
    await eventually(async () => (await paymentOf(polled.productionKey, created.token)).status).toBe('approved');
    const charge = await chargeFor(created.token);
    expect(deliveriesFor(charge.id)).toEqual([]);
    const kinds = (await paymentOf(polled.productionKey, created.token)).interaction_logs.map((log: { kind: string }) => log.kind);
    expect(kinds).toContain('status');
  });

  it('keeps a payment pending when Acme answers too late (code 408), then finds the charge by its reference on /status', async () => {
    const impatient = await acmeMerchant({ statusChecker: true, payTimeoutS: 2 });
    const created = await pay(impatient.productionKey, ACME_TEST_CARDS.slow);
    expect(created.payment.status).toBe('pending');
    const payLogs = (await paymentOf(impatient.productionKey, created.token)).interaction_logs.filter((log: { kind: string }) => log.kind === 'pay');
    expect(JSON.stringify(payLogs)).toContain('did not answer within');
    await eventually(async () => (await paymentOf(impatient.productionKey, created.token)).status).toBe('approved');
    expect((await paymentOf(impatient.productionKey, created.token)).gateway_token ?? (await chargeFor(created.token)).id).toMatch(/^ch_/);
  });

  it('sends the customer to Acme’s challenge page and approves the payment once the challenge passes', async () => {
    const created = await pay(callbacksOnly.productionKey, ACME_TEST_CARDS.challenge);
    expect(created.payment.status).toBe('pending');
    const charge = await chargeFor(created.token);
    expect(created.redirectRequest).toEqual({ url: `${simulator.url}/challenge/${charge.id}`, type: 'get' });
    const page = await request(created.redirectRequest!.url);
    expect(page.statusCode).toBe(200);
    expect(await page.body.text()).toContain('Pass the challenge');
    const answered = await request(created.redirectRequest!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=pass',
    });
    await answered.body.dump();
    expect(answered.statusCode).toBe(303);
    expect(answered.headers['location']).toContain(created.token); // back to Payrail's processing_url
    await eventually(async () => (await paymentOf(callbacksOnly.productionKey, created.token)).status).toBe('approved');
  });

  it('declines the payment when the customer fails the challenge', async () => {
    const created = await pay(callbacksOnly.productionKey, ACME_TEST_CARDS.challenge);
    const answered = await request(created.redirectRequest!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=fail',
    });
    await answered.body.dump();
    await eventually(async () => (await paymentOf(callbacksOnly.productionKey, created.token)).status).toBe('declined');
    expect((await paymentOf(callbacksOnly.productionKey, created.token)).decline_reason).toBe('gateway response error: 3-D Secure authentication failed');
  });

  it('refunds part of an approved payment at Acme, idempotently by the refund token', async () => {
    const created = await pay(callbacksOnly.productionKey, ACME_TEST_CARDS.authorised, 3000);
    const refunded = await server.call('POST', '/api/v1/refunds', { key: callbacksOnly.productionKey, body: { token: created.token, amount: 1200 } });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body.refund).toMatchObject({ amount: 1200, status: 'approved' });
    expect(await chargeFor(created.token)).toMatchObject({ amount_refunded_cents: 1200, state: 'authorised' });
    expect(await paymentOf(callbacksOnly.productionKey, created.token)).toMatchObject({ refunded_amount: 1200 });
  });

  it('declines a refund Acme fails, with the mapped reason', async () => {
    const created = await pay(callbacksOnly.productionKey, ACME_TEST_CARDS.refundsFail, 3000);
    expect(created.payment.status).toBe('approved');
    const refunded = await server.call('POST', '/api/v1/refunds', { key: callbacksOnly.productionKey, body: { token: created.token, amount: 3000 } });
    expect(refunded.body.refund).toMatchObject({ status: 'declined' });
    const refund = (await server.call('GET', `/api/v1/refunds/${refunded.body.refund.token}`, { key: callbacksOnly.productionKey })).body.refund;
    expect(refund.decline_reason).toBe('gateway response error: Refund declined by Acme Pay');
    expect(await chargeFor(created.token)).toMatchObject({ amount_refunded_cents: 0 });
  });

  it('pays out to a card at once, to another in transit until Acme’s webhook, and declines a refused one', async () => {
    const merchant = await acmeMerchant({ statusChecker: false });
    expect((await pay(merchant.productionKey, ACME_TEST_CARDS.authorised, 20_000)).payment.status).toBe('approved');
    const payout = (pan: string) =>
      server.call('POST', '/api/v1/payouts', {
        key: merchant.productionKey,
        body: {
          amount: 2500,
          currency: 'EUR',
          orderNumber: `payout-${randomBytes(4).toString('hex')}`,
          callbackUrl: 'https://merchant.example/payouts',
          bank_account: { requisite_type: 'card' },
          card: { pan },
          customer: { email: 'payee@example.com', first_name: 'Grace', last_name: 'Hopper' },
        },
      });
    const paid = await payout(ACME_TEST_CARDS.authorised);
    expect(paid.body.payment?.status, JSON.stringify(paid.body)).toBe('approved');
    const [acmePaid] = (await acme(`/v2/payouts?reference=${paid.body.token}`)).data;
    expect(acmePaid).toMatchObject({ state: 'paid', amount_cents: 2500, currency_code: 'eur', destination: { type: 'card', last4: '1111' } });

    const inTransit = await payout(ACME_TEST_CARDS.processingAuthorised);
    expect(inTransit.body.payment?.status).toBe('pending');
    await eventually(async () => (await paymentOf(merchant.productionKey, inTransit.body.token)).status).toBe('approved');

    const refused = await payout(ACME_TEST_CARDS.cardDeclined);
    expect(refused.body.payment?.status).toBe('declined');
    expect((await paymentOf(merchant.productionKey, refused.body.token)).decline_reason).toBe('gateway response error: Payout refused by the recipient bank');
  });
});
