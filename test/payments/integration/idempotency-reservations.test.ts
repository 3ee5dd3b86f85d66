import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const SAME_KEY_REQUESTS = 6;

// A refund's and a payout's Idempotency-Key is written by the statement that inserts the refund or payout, inside
// the transaction that reserves its money (store/payment-key-cte.ts keyedResource): requests racing with one key
// reserve once, and every other one is answered 409 idempotency_key_in_use or the first one's answer.
describe.each(engines)('an Idempotency-Key written with its refund or payout, on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;
  let merchant: { id: number; sandboxKey: string };

  beforeAll(async () => {
    server = await startServerHarness(engine);
    receiver = await startReceiver();
    merchant = await server.createMerchant('Keyed reservations');
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const pay = async (orderNumber: string): Promise<string> => {
    const paid = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: {
        product: 'Keyed',
        amount: 5000,
        currency: 'USD',
        callbackUrl: `${receiver.url}/hook`,
        orderNumber,
        card: { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(paid.body.payment.status).toBe('approved');
    return paid.body.token as string;
  };
  const rows = <Row>(query: ReturnType<typeof sql>) => queryRows<Row>(server.running.app.payrail.database, query);
  const hold = async () => {
    const [row] = await rows<{ hold: string }>(
      sql`select coalesce(sum(balance_minor), 0)::text as hold from ledger_balances where merchant_id = ${merchant.id} and account = 'hold'`,
    );
    return Number(row?.hold);
  };

  // One answer is the request that ran; every other one 409 in use (still running) or its answer replayed.
  const expectRanOnce = (answers: { status: number; body: any }[], tokenOf: (body: any) => string) => {
    const succeeded = answers.filter((answer) => answer.status === 200);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    expect(new Set(succeeded.map((answer) => tokenOf(answer.body))).size).toBe(1);
    for (const answer of answers.filter((each) => each.status !== 200)) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(409);
      expect(answer.body.errors[0].code).toBe('idempotency_key_in_use');
    }
    return tokenOf(succeeded[0]!.body);
  };

  it('refunds once for racing requests with one key, and a retry after them replays the refund', async () => {
    const token = await pay('keyed-refund');
    const body = { token, amount: 300 };
    const headers = { 'idempotency-key': 'race-refund-1' };
    const answers = await Promise.all(
      Array.from({ length: SAME_KEY_REQUESTS }, () => server.call('POST', '/api/v1/refunds', { key: merchant.sandboxKey, body, headers })),
    );
    const refundToken = expectRanOnce(answers, (answerBody) => answerBody.refund.token);
    const stored = await rows<{ token: string; refunded: string }>(
      sql`select r.token, p.refunded_minor::text as refunded from refunds r join payments p on p.id = r.payment_id where p.token = ${token}`,
    );
    expect(stored).toEqual([{ token: refundToken, refunded: '300' }]);
    const [key] = await rows<{ kind: string; resource: string }>(
      sql`select resource_kind as kind, resource_token as resource from idempotency_keys where idempotency_key = 'race-refund-1'`,
    );
    expect(key).toEqual({ kind: 'refund', resource: refundToken });
    const retried = await server.call('POST', '/api/v1/refunds', { key: merchant.sandboxKey, body, headers });
    expect(retried.status).toBe(200);
    expect(retried.body.refund.token).toBe(refundToken);
  });

  it('pays out once for racing requests with one key, reserving once', async () => {
    await pay('keyed-payout-funds');
    const holdBefore = await hold();
    const body = {
      amount: 100,
      currency: 'USD',
      orderNumber: 'keyed-payout',
      callbackUrl: `${receiver.url}/hook`,
      bank_account: { requisite_type: 'card' },
      card: { pan: '5555 5555 5555 4444' },
      customer: { email: 'ada@example.com', ip: '203.0.113.7' },
    };
    const headers = { 'idempotency-key': 'race-payout-1' };
    const answers = await Promise.all(
      Array.from({ length: SAME_KEY_REQUESTS }, () => server.call('POST', '/api/v1/payouts', { key: merchant.sandboxKey, body, headers })),
    );
    const payoutToken = expectRanOnce(answers, (answerBody) => answerBody.token);
    const payouts = await rows<{ token: string }>(sql`select token from payments where operation_type = 'payout' and order_number = 'keyed-payout'`);
    expect(payouts).toEqual([{ token: payoutToken }]);
    const [key] = await rows<{ kind: string; resource: string }>(
      sql`select resource_kind as kind, resource_token as resource from idempotency_keys where idempotency_key = 'race-payout-1'`,
    );
    expect(key).toEqual({ kind: 'payout', resource: payoutToken });
    expect(await hold()).toBe(holdBefore); // sent and approved at once: nothing left held, nothing held twice
  });
});
