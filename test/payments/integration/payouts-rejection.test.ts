import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { chargeOf, payoutReserved } from '../../../src/ledger/domain/ledger-postings.ts';
import { findBookViolations as findLedgerViolations } from '../../../src/payments/flows/ledger-check.ts';
import { postLedger } from '../../../src/ledger/store/ledger-repo.ts';
import { storedPayoutCustomer } from '../../../src/payments/flows/payout-request.ts';
import { insertPayout } from '../../../src/payments/store/payouts-repo.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type AdapterReply, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';
import { merchantAccounts } from '../../support/ledger-accounts.ts';

const engines = await testEngines();

// spec 4: the keys /payout may carry (callback_url and merchant_private_key let the provider call back, spec 5.6).
const PAYOUT_TOP_LEVEL_KEYS = ['callback_url', 'method_name', 'params', 'payment', 'processing_url', 'settings'];
const PAYOUT_PARAMS_KEYS = ['amount', 'bank_account', 'card', 'currency', 'customer'];
const PAYOUT_PAYMENT_KEYS = ['gateway_amount', 'gateway_currency', 'lead_id', 'merchant_private_key', 'order_number', 'token'];

const AMOUNT = 1000;
const COMMISSION = 20; // 1 % of 1000 + 10
const COST = AMOUNT + COMMISSION;
const FUNDED = 10_000;

interface ProductionMerchant {
  id: number;
  key: string;
  settings: Record<string, any>;
}

describe.each(engines)('payouts through a misbehaving production adapter on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startServerHarness(engine);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const database = () => server.running.app.payrail.database;
  const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

  // A concurrent test passes its own context's onTestFinished.
  const fakeAdapter = async (whenFinished: typeof onTestFinished = onTestFinished) => {
    const adapter = await startFakeAdapter();
    whenFinished(() => adapter.close());
    return adapter;
  };

  // A fresh production merchant per test whose one gateway is the test's own fake adapter, funded by one approved
  // payment and charged 1 % + 10 per payout. A payout's answer is awaited 3 s (tests of a silent adapter wait that
  // long); a test whose adapter always answers may wait longer, so a loaded machine never turns an answer pending.
  const productionMerchant = async (
    adapter: FakeAdapter,
    top: Record<string, unknown> = {},
    fundedMinor = FUNDED,
    payoutResponseTimeoutS = 3,
  ): Promise<ProductionMerchant> => {
    const merchant = await server.createMerchant('Payout merchant');
    const settings = {
      api_key: `ak_live_${randomBytes(8).toString('hex')}`,
      sign_key: randomBytes(16).toString('hex'),
      sandbox: false,
      host2host: true,
      validate_signature: true,
      gateway_settings: {
        processing_method: 'http_requests',
        full_link: adapter.url,
        methods: {
          // generous: PGlite runs on the test's own thread, so concurrent tests may stall it for a moment
          pay: { response_timeout: 10, final_waiting_seconds: 60 },
          payout: { response_timeout: payoutResponseTimeoutS, final_waiting_seconds: 1 },
          status: { response_timeout: 3 },
        },
        status_checker_time_rates: { '1-': 1 },
      },
      ...top,
    };
    const added = await server.call('POST', `/api/admin/v1/merchants/${merchant.id}/gateways`, {
      key: server.adminKey,
      body: { alias: 'acquirer', environment: 'production', settings },
    });
    expect(added.status).toBe(200);
    await database().db.execute(sql`insert into commissions (merchant_id, operation, percent_bp, fixed_minor) values (${merchant.id}, 'payout', 100, 10)`);
    adapter.respond('pay', reply.json(adapterAnswer.approved('gw-funding')));
    const paid = await server.call('POST', '/api/v1/payments', {
      key: merchant.productionKey,
      body: {
        product: 'Funding order',
        amount: fundedMinor,
        currency: 'EUR',
        callbackUrl: `${receiver.url}/payments`,
        card: { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(paid.body.payment?.status).toBe('approved');
    return { id: merchant.id, key: merchant.productionKey, settings };
  };

  const requisites = {
    card: { bank_account: { requisite_type: 'card' }, card: { pan: '4000 0566 5566 5556' } },
    sbp: { bank_account: { requisite_type: 'sbp', bank_name: 'Example Bank' } },
    account: { bank_account: { requisite_type: 'account', bank_name: 'Example Bank', account_number: '40817810000000000001' } },
  } as const;

  const createPayout = (merchant: ProductionMerchant, requisite: keyof typeof requisites = 'account', extra: Record<string, unknown> = {}) =>
    server.call('POST', '/api/v1/payouts', {
      key: merchant.key,
      body: {
        amount: AMOUNT,
        currency: 'EUR',
        orderNumber: 'payout-1',
        callbackUrl: `${receiver.url}/payouts`,
        customer: { email: 'payee@example.com', phone: '+79990000000', first_name: 'Ada' },
        ...requisites[requisite],
        ...extra,
      },
    });

  const payoutOf = async (merchant: ProductionMerchant, token: string) =>
    (await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.key })).body.payment;
  const statusOf = async (merchant: ProductionMerchant, token: string) => (await payoutOf(merchant, token)).status as string;

  const balances = async (merchantId: number) => {
    const { available, hold, fees, payouts } = await merchantAccounts(database().db, merchantId, 'production', 'EUR');
    return { available, hold, fees, payouts };
  };
  const HELD = { available: FUNDED - COST, hold: COST, fees: 0, payouts: 0 };
  const RELEASED = { available: FUNDED, hold: 0, fees: 0, payouts: 0 };
  const SENT = { available: FUNDED - COST, hold: 0, fees: COMMISSION, payouts: AMOUNT };

  const notificationsFor = (token: string) => receiver.received.filter((item) => item.body.includes(token)).map((item) => JSON.parse(item.body));

  it.each(['card', 'sbp', 'account'] as const)('sends a %s payout to /payout as spec 4 describes it, signed, without null fields', async (requisite) => {
    const adapter = await fakeAdapter();
    adapter.respond('payout', reply.json(adapterAnswer.approved('gw-shape')));
    const merchant = await productionMerchant(adapter);
    const created = await createPayout(merchant, requisite);
    expect(created.body.payment.status).toBe('approved');
    const [sent] = adapter.requestsFor('payout', created.body.token);
    expect(sent?.path).toBe('/payout');
    const body = sent!.body;
    expect(PAYOUT_TOP_LEVEL_KEYS).toEqual(expect.arrayContaining(Object.keys(body)));
    expect(PAYOUT_PARAMS_KEYS).toEqual(expect.arrayContaining(Object.keys(body.params)));
    expect(Object.keys(body.payment).sort()).toEqual(PAYOUT_PAYMENT_KEYS);
    expect(sent!.rawBody).not.toContain('null');
    expect(body).toMatchObject({
      method_name: 'payout',
      params: {
        amount: AMOUNT,
        currency: 'EUR',
        customer: { email: 'payee@example.com', phone: '+79990000000', first_name: 'Ada', ip: '127.0.0.1' },
        bank_account: { requisite_type: requisite },
      },
      payment: { token: created.body.token, merchant_private_key: merchant.key, gateway_amount: AMOUNT, gateway_currency: 'EUR', order_number: 'payout-1' },
      callback_url: `${server.baseUrl}/callbacks/v2/gateway_callbacks/${created.body.token}`,
    });
    expect(body.settings).toEqual(merchant.settings);
    if (requisite === 'card') expect(body.params.card).toEqual({ pan: '4000056655665556' });
    else expect(body.params.card).toBeUndefined();
    if (requisite === 'account') {
      expect(body.params.bank_account).toEqual({
        requisite_type: 'account',
        account_number: '40817810000000000001',
        bank_code: 'Example Bank',
        bank_name: 'Example Bank',
      });
    }
    const signature = createHmac('sha512', Buffer.from(merchant.settings['sign_key'], 'utf8')).update(sent!.rawBody, 'utf8').digest('hex');
    expect(sent!.headers['x-signature']).toBe(signature);
    expect(created.body.processingUrl).toEqual([{ acquirer: `${server.baseUrl}/payouts/${created.body.token}?locale=en` }]);
  });

  it('refuses a payout above the available balance with 422 insufficient_balance, without calling the adapter', async () => {
    const adapter = await fakeAdapter();
    const merchant = await productionMerchant(adapter, {}, COST - 1);
    const refused = await createPayout(merchant);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ success: false, errors: [{ code: 'insufficient_balance', field: 'amount' }] });
    expect(adapter.requestsFor('payout')).toHaveLength(0);
    const payouts = await queryRows<{ id: number }>(database(), sql`select id from payments where merchant_id = ${merchant.id} and operation_type = 'payout'`);
    expect(payouts).toHaveLength(0);
    expect(await balances(merchant.id)).toEqual({ available: COST - 1, hold: 0, fees: 0, payouts: 0 });
  });

  describe('the rejection rule: declined and result false always reject, a request error only with decline_payout_on_request_error', () => {
    const failingStatus = reply.httpStatus(500, 'status check is down'); // keeps an open payout open
    // [case, /payout reply, decline_payout_on_request_error, expected status, expected balances]
    const cases: [string, () => AdapterReply, boolean, string, typeof HELD][] = [
      ['status declined', () => reply.json(adapterAnswer.declined('gw-d', { details: 'account closed' })), false, 'declined', RELEASED],
      ['result false', () => reply.json({ result: false, error: 'beneficiary bank refused', logs: [] }), false, 'declined', RELEASED],
      ['a timeout without the flag', () => reply.sleep(4_500, reply.json(adapterAnswer.approved('late'))), false, 'processing', HELD],
      ['a timeout with the flag', () => reply.sleep(4_500, reply.json(adapterAnswer.approved('late'))), true, 'declined', RELEASED],
      ['an HTTP 500 without the flag', () => reply.httpStatus(500), false, 'processing', HELD],
      ['an HTTP 500 with the flag', () => reply.httpStatus(500), true, 'declined', RELEASED],
      [
        'result false with code 408 without the flag',
        () => reply.json({ result: false, code: 408, error: 'provider timeout', logs: [] }),
        false,
        'processing',
        HELD,
      ],
      ['a closed connection with the flag', () => reply.closeSocket(), true, 'declined', RELEASED],
      ['approved', () => reply.json(adapterAnswer.approved('gw-a')), false, 'approved', SENT],
    ];

    it.concurrent.for(cases)('%s', async ([, answer, flag, expectedStatus, expectedBalances], { expect, onTestFinished }) => {
      const adapter = await fakeAdapter(onTestFinished);
      adapter.respond('payout', answer());
      adapter.respond('status', failingStatus);
      const merchant = await productionMerchant(adapter, flag ? { decline_payout_on_request_error: true } : {});
      const created = await createPayout(merchant);
      expect(created.status).toBe(200);
      expect(created.body.payment.status).toBe(expectedStatus);
      expect(await balances(merchant.id)).toEqual(expectedBalances);
      const payout = await payoutOf(merchant, created.body.token);
      if (expectedStatus === 'declined') expect(payout.decline_reason).toMatch(/^(gateway response error: |payout request failed: )/);
      if (expectedStatus === 'processing') {
        // the status checker keeps asking; a failing /status leaves the payout and its hold as they are
        await expect.poll(() => adapter.requestsFor('status', created.body.token).length, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(2);
        expect(await statusOf(merchant, created.body.token)).toBe('processing');
        expect(await balances(merchant.id)).toEqual(HELD);
        expect(notificationsFor(created.body.token)).toEqual([]);
      } else {
        await expect.poll(() => notificationsFor(created.body.token).length, { timeout: 15_000, interval: 100 }).toBe(1);
        expect(notificationsFor(created.body.token)[0]).toMatchObject({ type: 'payout', status: expectedStatus, amount: AMOUNT, currency: 'EUR' });
      }
    });
  });

  it.each([
    ['approved: the hold is sent', adapterAnswer.approved('gw-late', { amount: AMOUNT, currency: 'EUR' }), 'approved', SENT],
    // A status answer declines only with result true (spec 4's /status row); result false is a failed lookup.
    ['declined: the hold is released', adapterAnswer.declined('gw-late', { details: 'unknown transaction' }), 'declined', RELEASED],
  ])('settles a processing payout by status check, %s', async (_case, statusAnswer, expectedStatus, expectedBalances) => {
    const adapter = await fakeAdapter();
    adapter.respond('payout', reply.httpStatus(502));
    let answering = false;
    adapter.respond('status', () => (answering ? reply.json(statusAnswer) : reply.httpStatus(503)));
    const merchant = await productionMerchant(adapter);
    const created = await createPayout(merchant);
    expect(created.body.payment.status).toBe('processing');
    await eventually(() => adapter.requestsFor('status', created.body.token).length).toBeGreaterThanOrEqual(1);
    expect(await statusOf(merchant, created.body.token)).toBe('processing');
    answering = true;
    await eventually(() => statusOf(merchant, created.body.token)).toBe(expectedStatus);
    expect(await balances(merchant.id)).toEqual(expectedBalances);
    await eventually(() => notificationsFor(created.body.token).length).toBe(1);
    expect(notificationsFor(created.body.token)[0]).toMatchObject({ type: 'payout', status: expectedStatus });
  });

  // Issue 18 item 1: a failed lookup never settles a payout, so its lifetime (PAYRAIL_PAYOUT_LIFETIME_MINUTES) does.
  const lifetimeCases: [string, () => AdapterReply, string, typeof HELD][] = [
    ['a failed lookup: it expires, the hold released', () => reply.json({ result: false, error: 'unknown transaction', logs: [] }), 'expired', RELEASED],
    ['pending: it expires, the hold released', () => reply.json(adapterAnswer.pending('gw-open')), 'expired', RELEASED],
    ['approved: the approval stands', () => reply.json(adapterAnswer.approved('gw-open', { amount: AMOUNT, currency: 'EUR' })), 'approved', SENT],
  ];
  it.concurrent.for(lifetimeCases)(
    'ends an open payout at the end of its lifetime after one last status check, %s',
    async ([, lastAnswer, expectedStatus, expectedBalances], { expect, onTestFinished }) => {
      const adapter = await fakeAdapter(onTestFinished);
      adapter.respond('payout', reply.httpStatus(502));
      let lastCheck = false;
      adapter.respond('status', () => (lastCheck ? lastAnswer() : reply.httpStatus(503)));
      const merchant = await productionMerchant(adapter);
      const created = await createPayout(merchant);
      expect(created.body.payment.status).toBe('processing');
      const lifetimeEnd = new Date((await payoutOf(merchant, created.body.token)).expires_at).getTime();
      expect(lifetimeEnd - Date.now()).toBeGreaterThan(23 * 3_600_000); // the default: 1440 minutes
      const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });
      await poll(() => adapter.requestsFor('status', created.body.token).length).toBeGreaterThanOrEqual(2);
      expect(await statusOf(merchant, created.body.token)).toBe('processing');
      lastCheck = true;
      await database().db.execute(sql`update payments set expires_at = now() - interval '1 second' where token = ${created.body.token}`);
      await poll(() => statusOf(merchant, created.body.token)).toBe(expectedStatus);
      expect(await balances(merchant.id)).toEqual(expectedBalances);
      await poll(() => notificationsFor(created.body.token).length).toBe(1);
      expect(notificationsFor(created.body.token)[0]).toMatchObject({ type: 'payout', status: expectedStatus });
      expect(adapter.requestsFor('payout', created.body.token)).toHaveLength(1);
    },
  );

  it('keeps a pending payout held until a status check approves it', async () => {
    const adapter = await fakeAdapter();
    adapter.respond('payout', reply.json(adapterAnswer.pending('gw-pending')));
    let approved = false;
    adapter.respond('status', () => reply.json(approved ? adapterAnswer.approved('gw-pending') : adapterAnswer.pending('gw-pending')));
    const merchant = await productionMerchant(adapter);
    const created = await createPayout(merchant);
    expect(created.body.payment.status).toBe('pending');
    expect(await balances(merchant.id)).toEqual(HELD);
    await eventually(() => adapter.requestsFor('status', created.body.token).length).toBeGreaterThanOrEqual(1);
    expect((await payoutOf(merchant, created.body.token)).gateway_token).toBe('gw-pending');
    approved = true;
    await eventually(() => statusOf(merchant, created.body.token)).toBe('approved');
    expect(await balances(merchant.id)).toEqual(SENT);
  });

  it('lets the provider settle a pending payout by callback (spec 5.6), sent to the callback_url of /payout', async () => {
    const adapter = await fakeAdapter();
    adapter.respond('payout', reply.json(adapterAnswer.pending('gw-callback')));
    adapter.respond('status', reply.json(adapterAnswer.pending('gw-callback')));
    const merchant = await productionMerchant(adapter);
    const created = await createPayout(merchant);
    expect(created.body.payment.status).toBe('pending');
    const [sent] = adapter.requestsFor('payout', created.body.token);
    const answer = await adapter.sendCallback({
      callbackUrl: sent!.body.callback_url,
      signKey: merchant.settings['sign_key'],
      merchantKey: merchant.key,
      claims: { status: 'declined', amount: AMOUNT, currency: 'EUR', reason: 'beneficiary account closed', gateway_token: 'gw-callback' },
      dispatcher: server.dispatcher,
    });
    expect(answer).toMatchObject({ statusCode: 200, body: { success: true, applied: true } });
    expect(await payoutOf(merchant, created.body.token)).toMatchObject({
      status: 'declined',
      decline_reason: 'gateway response error: beneficiary account closed',
    });
    expect(await balances(merchant.id)).toEqual(RELEASED);
  });

  // The answer to a payout still as its request created it is written without the payout's lock
  // (flows/payouts.ts applyToCreatedPayout); one that finds it already settled decides again under the lock.
  it('lets a callback that settles a payout while its /payout is in flight win over the late answer: told and posted once', async () => {
    const adapter = await fakeAdapter();
    adapter.respond('status', reply.json(adapterAnswer.pending('gw-race')));
    const merchant = await productionMerchant(adapter);
    adapter.respond('payout', async (request) => {
      const callback = await adapter.sendCallback({
        callbackUrl: request.body.callback_url,
        signKey: merchant.settings['sign_key'],
        merchantKey: merchant.key,
        claims: { status: 'declined', amount: AMOUNT, currency: 'EUR', reason: 'beneficiary account closed', gateway_token: 'gw-race' },
        dispatcher: server.dispatcher,
      });
      expect(callback).toMatchObject({ statusCode: 200, body: { success: true, applied: true } });
      return reply.json(adapterAnswer.approved('gw-race'));
    });
    const created = await createPayout(merchant);
    expect(created.body.payment).toMatchObject({ status: 'declined' });
    expect(await balances(merchant.id)).toEqual(RELEASED);
    const told = await queryRows<{ sequence: number; status: string }>(
      database(),
      sql`select o.event_sequence as sequence, o.event_snapshot -> 'payment' ->> 'status' as status from outbox o
        join payments p on p.id = o.payment_id where p.token = ${created.body.token} and o.topic = 'notification'`,
    );
    expect(told).toEqual([{ sequence: 1, status: 'declined' }]);
    const postings = await queryRows<{ kind: string }>(
      database(),
      sql`select t.kind from ledger_transactions t join payments p on p.id = t.payment_id where p.token = ${created.body.token} order by t.id`,
    );
    expect(postings.map((posting) => posting.kind)).toEqual(['payout_reserved', 'payout_released']);
    const logs = await queryRows<{ kind: string }>(
      database(),
      sql`select l.kind from payment_logs l join payments p on p.id = l.payment_id where p.token = ${created.body.token}`,
    );
    expect(logs.map((log) => log.kind)).toContain('payout'); // the late answer is kept
  });

  it('settles a payout whose request never got an answer recorded (a crash after its reservation)', async () => {
    const adapter = await fakeAdapter();
    adapter.respond('status', reply.json(adapterAnswer.declined('gw-none', { details: 'unknown transaction' })));
    const merchant = await productionMerchant(adapter);
    const [gateway] = await queryRows<{ id: string }>(database(), sql`select id::text as id from gateways where merchant_id = ${merchant.id}`);
    const token = randomBytes(16).toString('hex');
    // What createPayout stores before it calls the adapter, with its status check due now.
    await database().db.transaction(async (tx) => {
      const payout = await insertPayout(
        tx,
        {
          token,
          merchantId: merchant.id,
          environment: 'production',
          product: 'Payout crashed-1',
          amountMinor: AMOUNT,
          currency: 'EUR',
          gatewayAmountMinor: AMOUNT,
          gatewayCurrency: 'EUR',
          callbackUrl: `${receiver.url}/payouts`,
          orderNumber: 'crashed-1',
          locale: 'en',
          cardMask: null,
          customer: storedPayoutCustomer({ email: 'payee@example.com', ip: null, firstName: null, lastName: null, middleName: null, phone: null }),
          bankAccount: { requisiteType: 'account', bankName: 'Example Bank', accountNumber: '408178' },
          gatewayId: Number(gateway!.id),
          gatewayAlias: 'acquirer',
          expiresAt: new Date(Date.now() + 24 * 3_600_000),
        },
        new Date(),
        'api',
        null,
      );
      const terms = { percentBp: payout.commissionPercentBp, fixedMinor: payout.commissionFixedMinor };
      await postLedger(tx, payout, payoutReserved(chargeOf(payout.amountMinor, payout.currency, terms)), { paymentId: payout.id });
    });
    expect(await balances(merchant.id)).toEqual(HELD);
    await eventually(() => statusOf(merchant, token)).toBe('declined');
    expect(await balances(merchant.id)).toEqual(RELEASED);
    expect(adapter.requestsFor('payout')).toHaveLength(0);
  });

  it('never overdraws a balance: of N parallel payouts exactly floor(balance / cost) succeed, the rest get 422', async () => {
    const adapter = await fakeAdapter();
    adapter.respond('payout', reply.json(adapterAnswer.approved('gw-parallel')));
    const funded = 5 * COST + 500;
    const merchant = await productionMerchant(adapter, {}, funded, 30);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, index) => createPayout(merchant, 'account', { orderNumber: `parallel-${index}` })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(7).fill(422)]);
    for (const refused of answers.filter((answer) => answer.status === 422)) expect(refused.body.errors).toMatchObject([{ code: 'insufficient_balance' }]);
    expect(adapter.requestsFor('payout')).toHaveLength(5);
    expect(answers.filter((answer) => answer.status === 200).map((answer) => answer.body.payment.status)).toEqual(Array(5).fill('approved'));
    expect(await balances(merchant.id)).toEqual({ available: 500, hold: 0, fees: 5 * COMMISSION, payouts: 5 * AMOUNT });
  });

  it('leaves a ledger without violations', async () => {
    expect(await findLedgerViolations(database().db)).toEqual([]);
  });
});
