import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  addGateway,
  callbackMerchant,
  gatewaySettings,
  ORDER,
  payWithCard,
  paymentOf,
  postCallback,
  reencodeSignature,
  signedCallback,
  type CallbackMerchant,
} from '../../support/callback-merchant.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

describe.each(engines)('provider callbacks on %s', (engine) => {
  let server: ServerHarness;

  beforeAll(async () => {
    server = await startServerHarness(engine, { PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1' });
  });
  afterAll(async () => server?.close());

  const database = () => server.running.app.payrail.database;
  const fakeAdapter = async (gatewayToken: string) => {
    const adapter = await startFakeAdapter();
    onTestFinished(() => adapter.close());
    adapter.respond('pay', reply.json(adapterAnswer.pending(gatewayToken)));
    return adapter;
  };
  const pendingPayment = async (adapter: FakeAdapter, top: Record<string, unknown> = {}) => {
    const merchant = await callbackMerchant(server, adapter, top);
    const { token, status } = await payWithCard(server, merchant, `cb-${randomBytes(4).toString('hex')}`);
    expect(status).toBe('pending');
    return { merchant, token };
  };
  const sign = (merchant: CallbackMerchant, claims: Record<string, unknown>) => signedCallback(merchant.gateway.signKey, merchant.productionKey, claims);
  const notificationsQueued = async (token: string) =>
    (
      await queryRows<{ n: number }>(
        database(),
        sql`select count(*)::int as n from outbox o join payments p on p.id = o.payment_id where p.token = ${token} and o.topic = 'notification'`,
      )
    )[0]!.n;
  const logKinds = async (merchant: CallbackMerchant, token: string) =>
    ((await paymentOf(server, merchant.productionKey, token)).interaction_logs as { kind: string }[]).map((log) => log.kind);

  describe('are recorded and applied in one transaction', () => {
    it('applies the provider’s retry when applying the first delivery failed after it was recorded', async () => {
      const adapter = await fakeAdapter('gw-fault');
      const { merchant, token } = await pendingPayment(adapter);
      const [{ id }] = (await queryRows<{ id: number }>(database(), sql`select id from payments where token = ${token}`)) as [{ id: number }];
      const db = database().db;
      // A fault inside the apply: the first log row this payment gets raises (a sequence is not rolled back).
      await db.execute(sql.raw(`create sequence fault_${id}_seq`));
      await db.execute(
        sql.raw(`create function fault_${id}() returns trigger language plpgsql as $$
          begin if nextval('fault_${id}_seq') = 1 then raise exception 'injected fault'; end if; return new; end $$`),
      );
      await db.execute(
        sql.raw(`create trigger fault_${id} before insert on payment_logs for each row when (new.payment_id = ${id}) execute function fault_${id}()`),
      );
      // The process dies with the fault: nothing it meant to do afterwards (such as forgetting the callback) happens.
      await db.execute(sql.raw(`create function no_forget_${id}() returns trigger language plpgsql as $$ begin raise exception 'the process died'; end $$`));
      await db.execute(
        sql.raw(
          `create trigger no_forget_${id} before delete on provider_callbacks for each row when (old.payment_id = ${id}) execute function no_forget_${id}()`,
        ),
      );

      const jwt = await sign(merchant, { status: 'approved', gateway_token: 'gw-fault' });
      const first = await postCallback(server, token, jwt);
      expect(first.status).toBe(500);
      expect((await paymentOf(server, merchant.productionKey, token)).status).toBe('pending');

      const retry = await postCallback(server, token, jwt);
      expect(retry).toMatchObject({ status: 200, body: { success: true, applied: true } });
      expect((await paymentOf(server, merchant.productionKey, token)).status).toBe('approved');
      expect(await notificationsQueued(token)).toBe(1);
      expect(await postCallback(server, token, jwt)).toMatchObject({ status: 200, body: { applied: false } });
    });
  });

  describe('are bound to their payment', () => {
    it.each([
      ['a gateway_token that is not the payment’s', {}, { gateway_token: 'gw-someone-else' }, /gateway_token/],
      ['an amount that is not the payment’s', {}, { amount: ORDER.amount * 100 }, /amount/],
      ['a currency that is not the payment’s', {}, { currency: 'USD' }, /currency/],
      ['a currency that is not the payment’s, even with enable_update_amount', { enable_update_amount: true }, { currency: 'USD', amount: 500 }, /currency/],
    ])('refuses (422, logged on the payment) a callback with %s', async (_label, top, claims, reason) => {
      const adapter = await fakeAdapter('gw-bound');
      const { merchant, token } = await pendingPayment(adapter, top);
      const answer = await postCallback(server, token, await sign(merchant, { status: 'approved', gateway_token: 'gw-bound', ...claims }));
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ success: false, errors: [{ code: 'invalid_callback', message: expect.stringMatching(reason) }] });
      const payment = await paymentOf(server, merchant.productionKey, token);
      expect(payment).toMatchObject({ status: 'pending', amount: ORDER.amount, currency: ORDER.currency, gateway_token: 'gw-bound' });
      const refusal = payment.interaction_logs.at(-1);
      expect(refusal).toMatchObject({
        kind: 'callback_rejected',
        entry: { status: 422, response: { error: expect.stringMatching(reason) }, request: { body: { status: 'approved' } } },
      });
      expect(JSON.stringify(refusal)).not.toContain(merchant.productionKey);
      expect(await notificationsQueued(token)).toBe(0);
    });

    it('accepts a gateway_token when the payment has none yet, and an amount that differs under enable_update_amount', async () => {
      const adapter = await startFakeAdapter();
      onTestFinished(() => adapter.close());
      adapter.respond('pay', reply.json({ result: true, status: 'pending', logs: [] }));
      const { merchant, token } = await pendingPayment(adapter, { enable_update_amount: true });
      const answer = await postCallback(server, token, await sign(merchant, { status: 'approved', gateway_token: 'gw-late', amount: 1500 }));
      expect(answer).toMatchObject({ status: 200, body: { applied: true } });
      expect(await paymentOf(server, merchant.productionKey, token)).toMatchObject({
        status: 'approved',
        gateway_token: 'gw-late',
        amount: 1500,
        gateway_amount: 1500,
      });
    });

    it('refuses a callback signed with the key of another gateway of the same merchant', async () => {
      const adapter = await fakeAdapter('gw-a');
      const { merchant, token } = await pendingPayment(adapter);
      const other = await addGateway(server, merchant.id, 'second', gatewaySettings(adapter));
      const answer = await postCallback(
        server,
        token,
        await signedCallback(other.signKey, merchant.productionKey, { status: 'approved', gateway_token: 'gw-a' }),
      );
      expect(answer.status).toBe(422);
      expect(answer.body.errors[0].message).toMatch(/does not verify/);
      expect((await paymentOf(server, merchant.productionKey, token)).status).toBe('pending');
      expect(await logKinds(merchant, token)).toContain('callback_rejected');
      // the key of the gateway the payment went through still works
      expect(await postCallback(server, token, await sign(merchant, { status: 'approved', gateway_token: 'gw-a' }))).toMatchObject({
        status: 200,
        body: { applied: true },
      });
    });

    it.each(['sandbox', 'production'] as const)('refuses a callback for a %s payment that was never sent to a gateway', async (environment) => {
      const adapter = await fakeAdapter('gw-none');
      const merchant = await callbackMerchant(server, adapter);
      const key = environment === 'sandbox' ? merchant.sandboxKey : merchant.productionKey;
      const created = await server.call('POST', '/api/v1/payments', { key, body: { ...ORDER, callbackUrl: 'https://merchant.example/payrail' } });
      expect(created.body.payment.status).toBe('init');
      const signKey = environment === 'sandbox' ? server.running.app.payrail.sandboxAdapterSecret : merchant.gateway.signKey;
      const answer = await postCallback(server, created.body.token, await signedCallback(signKey, key, { status: 'approved' }));
      expect(answer.status).toBe(422);
      expect(answer.body.errors[0].message).toMatch(/not sent to a gateway/);
      const payment = await paymentOf(server, key, created.body.token);
      expect(payment.status).toBe('init');
      expect(payment.interaction_logs.map((log: { kind: string }) => log.kind)).toEqual(['callback_rejected']);
    });

    it('refuses a genuine callback of one payment posted to another payment of the same merchant', async () => {
      const adapter = await startFakeAdapter();
      onTestFinished(() => adapter.close());
      adapter.respond('pay', reply.json({ result: true, status: 'pending', logs: [] }));
      const merchant = await callbackMerchant(server, adapter);
      const first = await payWithCard(server, merchant, 'first');
      const second = await payWithCard(server, merchant, 'second');
      const jwt = await sign(merchant, { status: 'approved' });
      expect(await postCallback(server, first.token, jwt)).toMatchObject({ status: 200, body: { applied: true } });
      const moved = await postCallback(server, second.token, jwt);
      expect(moved.status).toBe(422);
      expect((await paymentOf(server, merchant.productionKey, second.token)).status).toBe('pending');

      // posted to two payments at once, it still moves only one of them
      const third = await payWithCard(server, merchant, 'third');
      const fourth = await payWithCard(server, merchant, 'fourth');
      const both = await sign(merchant, { status: 'declined', reason: 'posted twice' });
      const answers = await Promise.all([postCallback(server, third.token, both), postCallback(server, fourth.token, both)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
      const statuses = await Promise.all([third, fourth].map(async ({ token }) => (await paymentOf(server, merchant.productionKey, token)).status));
      expect(statuses.sort()).toEqual(['declined', 'pending']);
    });

    it('recognises a re-encoded signature of a callback already seen, even under enable_change_final_status', async () => {
      const adapter = await fakeAdapter('gw-flip');
      const { merchant, token } = await pendingPayment(adapter, { enable_change_final_status: true });
      const approved = await sign(merchant, { status: 'approved', gateway_token: 'gw-flip' });
      expect(await postCallback(server, token, approved)).toMatchObject({ status: 200, body: { applied: true } });
      const declined = await sign(merchant, { status: 'declined', gateway_token: 'gw-flip', reason: 'chargeback' });
      expect(await postCallback(server, token, declined)).toMatchObject({ status: 200, body: { applied: true } });
      expect((await paymentOf(server, merchant.productionKey, token)).status).toBe('declined');

      const replayed = reencodeSignature(approved);
      expect(replayed).not.toBe(approved);
      expect(await postCallback(server, token, replayed)).toMatchObject({ status: 200, body: { success: true, applied: false } });
      expect(await paymentOf(server, merchant.productionKey, token)).toMatchObject({
        status: 'declined',
        decline_reason: 'gateway response error: chargeback',
      });
      expect(await notificationsQueued(token)).toBe(2);
    });
  });

  it('finalizes a payment once when two different callbacks race', async () => {
    const adapter = await fakeAdapter('gw-race');
    const { merchant, token } = await pendingPayment(adapter);
    const callbacks = await Promise.all([
      sign(merchant, { status: 'approved', gateway_token: 'gw-race' }),
      sign(merchant, { status: 'approved', gateway_token: 'gw-race', details: 'second delivery' }),
      sign(merchant, { status: 'declined', gateway_token: 'gw-race', reason: 'late' }),
    ]);
    const answers = await Promise.all(callbacks.map((jwt) => postCallback(server, token, jwt)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.filter((answer) => answer.body.applied === true)).toHaveLength(1);
    expect(['approved', 'declined']).toContain((await paymentOf(server, merchant.productionKey, token)).status);
    // The loser contradicts the winner: one conflict (the two approvals are one report), told to the merchant too.
    const conflicts = await queryRows<{ n: number }>(
      database(),
      sql`select count(*)::int as n from payment_conflicts c join payments p on p.id = c.payment_id where p.token = ${token}`,
    );
    expect(conflicts).toEqual([{ n: 1 }]);
    expect(await notificationsQueued(token)).toBe(2);
  });
});
