import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { SANDBOX_CALLBACK_POLL } from '../../support/sql.ts';

const engines = await testEngines();

// The round trips to PostgreSQL of an approved Host-to-Host payment, a refund and a payout (issue 24: each a
// statement's latency and a share of the server's CPU), counted below drizzle on the pg client: every statement the
// request's connections sent, the sandbox acquirer's included. PostgreSQL only: PGlite has no round trips.
describe.runIf(engines.includes('postgres'))('the statements of a payment, a refund and a payout on postgres', () => {
  let server: ServerHarness;
  let receiver: Receiver;
  const sent: string[] = [];
  const names: string[] = []; // of the statements sent as named prepared statements
  let counting = false;
  const query = pg.Client.prototype.query;

  beforeAll(async () => {
    // The api's pool only (the in-process worker has connections of its own), and not the sandbox's callback poll,
    // which runs on a timer whatever the requests do. Patched before the pool connects: its clients bind query then.
    let apiClients: unknown[] = [];
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as string | { text?: string };
      const text = String(typeof config === 'string' ? config : config.text)
        .replace(/\s+/g, ' ')
        .trim();
      if (counting && apiClients.includes(this) && !SANDBOX_CALLBACK_POLL.test(text)) {
        // a submittable here is a statement sent with its transaction's COMMIT, one round trip (commit-pipelined.ts)
        const pipelined = typeof config === 'object' && typeof (config as { submit?: unknown }).submit === 'function';
        sent.push(pipelined ? `${text} + commit` : text);
        const name = typeof config === 'string' ? undefined : (config as { name?: unknown }).name;
        if (typeof name === 'string') names.push(name);
      }
      return (query as (...all: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    server = await startServerHarness('postgres', { PAYRAIL_SANDBOX_RESPONSE_TIMEOUT_S: '10' });
    apiClients = (server.running.app.payrail.database.db as unknown as { $client: { _clients: unknown[] } }).$client._clients;
    receiver = await startReceiver();
  });
  afterAll(async () => {
    pg.Client.prototype.query = query;
    await receiver?.close();
    await server?.close();
  });

  const counted = async <T>(request: () => Promise<T>): Promise<{ answer: T; statements: string[] }> => {
    sent.length = 0;
    names.length = 0;
    counting = true;
    try {
      return { answer: await request(), statements: [...sent] };
    } finally {
      counting = false;
    }
  };
  const customer = { email: 'ada@example.com', ip: '203.0.113.7' };
  const pay = (key: string, orderNumber: string) =>
    server.call('POST', '/api/v1/payments', {
      key,
      body: {
        product: 'Order #24',
        amount: 1000,
        currency: 'USD',
        callbackUrl: `${receiver.url}/hook`,
        orderNumber,
        card: { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer,
      },
    });

  const payoutBody = (orderNumber: string) => ({
    amount: 100,
    currency: 'USD',
    orderNumber,
    callbackUrl: `${receiver.url}/hook`,
    bank_account: { requisite_type: 'card' },
    card: { pan: '5555 5555 5555 4444' },
    customer,
  });

  it('pays in 3, refunds in 5 and pays out in 5, the acquirer’s one each included, the money paths prepared', async () => {
    const merchant = await server.createMerchant('Round trips');
    const key = merchant.sandboxKey;
    for (const orderNumber of ['warm-1', 'warm-2', 'warm-3']) expect((await pay(key, orderNumber)).status).toBe(200);
    const warmRefund = await server.call('POST', '/api/v1/refunds', { key, body: { token: (await pay(key, 'warm-4')).body.token, amount: 100 } });
    expect(warmRefund.status, JSON.stringify(warmRefund.body)).toBe(200);

    const payment = await counted(() => pay(key, 'counted-pay'));
    expect(payment.answer.body.payment.status).toBe('approved');
    expect(payment.statements).toEqual([
      expect.stringMatching(/^with "created" as \(insert into "payments"/),
      expect.stringMatching(/^insert into "sandbox_transactions"/),
      expect.stringMatching(/^with "moved" as \(update "payments"/),
    ]);

    const refund = await counted(() => server.call('POST', '/api/v1/refunds', { key, body: { token: payment.answer.body.token, amount: 100 } }));
    expect(refund.answer.body.refund.status).toBe('approved');
    expect(refund.statements).toEqual([
      expect.stringMatching(/^begin; select set_config\('payrail\.actor', 'key:/), // the audit settings ride on BEGIN
      expect.stringMatching(
        /^select .* from "payments" where \("payments"\."id" = \(select by_token\.id from "payments" as by_token where by_token\.token = .* for update of "payments"$/,
      ), // found by token and locked
      // the refund with its reservation: the guarded debit of one row (no savepoint), from the new refund's shard on,
      // sent with the COMMIT, so the balance row it locks is released without waiting for the server to send one
      expect.stringMatching(/^with "created" as \(insert into "refunds" .*"locked_0" as \(select shard from "ledger_balances" .*"posted" as .*\+ commit$/),
      expect.stringMatching(/^with target as \( select payment_token/), // the sandbox acquirer
      // the answer: one statement, no transaction: it hands the audit settings over and locks the payment itself
      expect.stringMatching(
        /^with "audited" as \(select set_config\('payrail\.actor', .*"locked" as \(select payments\.id from "payments" .* for update of payments\), "finished" as \(update "refunds" .*"bumped" as \(update "payments" set .*last_event_sequence = .*"queued" as \(insert into outbox .*"posted" as/,
      ),
    ]);
    // Prepared once per connection, named by purpose and text (platform/lib/named-statements.ts), the acquirer's too.
    expect(names.map((name) => name.replace(/_[0-9a-f]{16}$/, ''))).toEqual([
      'payrail_refund_lock',
      'payrail_refund_reserve',
      'payrail_sandbox_refund',
      'payrail_refund_settle',
    ]);

    const payout = await counted(() => server.call('POST', '/api/v1/payouts', { key, body: payoutBody('counted-payout') }));
    expect(payout.answer.body.payment.status).toBe('approved');
    expect(payout.statements).toEqual([
      expect.stringMatching(/^begin; select set_config/),
      expect.stringMatching(/^with "created" as \(insert into "payments"/),
      expect.stringMatching(/^with locked_0 as \(select shard from "ledger_balances" .* \+ commit$/), // its COMMIT with it
      expect.stringMatching(/^insert into "sandbox_transactions"/),
      // the answer to the payout it created, still init and holding its marker: one statement, no lock, no transaction
      expect.stringMatching(
        /^with "moved" as \(update "payments" .*"exchange_kind" = \$\d+::text and "payments"\."exchange_until" = .*"queued" as \(insert into outbox .*"posted" as/,
      ),
    ]);
    expect(names.at(-1)?.replace(/_[0-9a-f]{16}$/, '')).toBe('payrail_move');
  });

  // A request with an Idempotency-Key (as the spec asks of every POST): the key is read when it arrives, written by
  // the statement that inserts the refund or payout (not a statement of its own), and completed with the answer.
  it('writes a refund’s and a payout’s Idempotency-Key with the row it names, in that row’s statement', async () => {
    const merchant = await server.createMerchant('Keyed round trips');
    const key = merchant.sandboxKey;
    for (const orderNumber of ['warm-1', 'warm-2']) expect((await pay(key, orderNumber)).status).toBe(200);
    const paid = await pay(key, 'keyed-pay');
    const keyed = (idempotencyKey: string) => ({ 'idempotency-key': idempotencyKey });

    const refundBody = { token: paid.body.token, amount: 100 };
    const refund = await counted(() => server.call('POST', '/api/v1/refunds', { key, body: refundBody, headers: keyed('refund-key-1') }));
    expect(refund.answer.status, JSON.stringify(refund.answer.body)).toBe(200);
    expect(refund.statements).toEqual([
      expect.stringMatching(/^select .* from "idempotency_keys" where /), // the key read
      expect.stringMatching(/^begin; select set_config/),
      expect.stringMatching(/^select .* from "payments" .* for update of "payments"$/),
      expect.stringMatching(/^with "created" as \(insert into "refunds" .*"keyed" as \(insert into "idempotency_keys" .*"posted" as .*\+ commit$/),
      expect.stringMatching(/^with target as \( select payment_token/),
      expect.stringMatching(/^with "audited" as \(select set_config.*"finished" as \(update "refunds" /),
      expect.stringMatching(/^update "idempotency_keys" set /), // the answer stored
    ]);
    const replayed = await server.call('POST', '/api/v1/refunds', { key, body: refundBody, headers: keyed('refund-key-1') });
    expect(replayed.body).toEqual(refund.answer.body);

    const keyedPayoutBody = payoutBody('keyed-payout');
    const payout = await counted(() => server.call('POST', '/api/v1/payouts', { key, body: keyedPayoutBody, headers: keyed('payout-key-1') }));
    expect(payout.answer.status, JSON.stringify(payout.answer.body)).toBe(200);
    expect(payout.statements).toEqual([
      expect.stringMatching(/^select .* from "idempotency_keys" where /),
      expect.stringMatching(/^begin; select set_config/),
      expect.stringMatching(/^with "created" as \(insert into "payments" .*"keyed" as \(insert into "idempotency_keys"/),
      expect.stringMatching(/^with locked_0 as \(select shard from "ledger_balances" .* \+ commit$/), // its COMMIT with it
      expect.stringMatching(/^insert into "sandbox_transactions"/),
      expect.stringMatching(/^with "moved" as \(update "payments" /),
      expect.stringMatching(/^update "idempotency_keys" set /),
    ]);
    const payoutReplayed = await server.call('POST', '/api/v1/payouts', { key, body: keyedPayoutBody, headers: keyed('payout-key-1') });
    expect(payoutReplayed.body).toEqual(payout.answer.body);
  });
});
