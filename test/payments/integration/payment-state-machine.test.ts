import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTransition, IllegalTransitionError, NO_FINAL_CHANGE } from '../../../src/payments/domain/payment-status.ts';
import { findPaymentById, markProcessing, updatePayment } from '../../../src/payments/store/processing-repo.ts';
import { transitionPayment } from '../../support/bare-transition.ts';
import { expireDuePayments } from '../../../src/workers/expiry.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

// ARCHITECTURE principle 3: every status change is decided by the domain and written by one store function,
// conditionally on the status it was decided from; the database itself refuses a status it does not know.
describe.each(engines)('the payment state machine on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
  });
  afterAll(async () => harness?.close());

  const db = () => harness.database.db;
  const deps = () => ({ context: harness.app.payrail, adapterClient: harness.app.payrail.adapterClient });
  const newPayment = async (): Promise<number> => {
    const created = await harness.merchantRequest(merchant.sandboxKey, { method: 'POST', url: '/api/v1/payments', payload: validPaymentA });
    expect(created.statusCode).toBe(200);
    const [row] = await queryRows<{ id: number }>(harness.database, sql`select id from payments where token = ${created.json().token}`);
    return Number(row!.id);
  };
  const statusOf = async (paymentId: number) => (await findPaymentById(db(), paymentId))!.status;
  const notifications = async (paymentId: number) =>
    (
      await queryRows<{ n: number }>(harness.database, sql`select count(*)::int as n from outbox where payment_id = ${paymentId} and topic = 'notification'`)
    )[0]!.n;
  const failureOf = async (promise: Promise<unknown>): Promise<string> => {
    try {
      await promise;
    } catch (error) {
      // drizzle wraps the driver's error; the constraint is named in its cause
      return `${String(error)} ${String((error as { cause?: unknown }).cause)}`;
    }
    throw new Error('the statement was accepted');
  };

  it.each(['settled', 'INIT', ''])('refuses the status %j with the CHECK constraint', async (bogus) => {
    const paymentId = await newPayment();
    expect(await failureOf(db().execute(sql`update payments set status = ${bogus} where id = ${paymentId}`))).toMatch(/payments_status_check/);
    expect(await statusOf(paymentId)).toBe('init');
  });

  it('writes a decided transition only while the payment still has the status it was decided from', async () => {
    const paymentId = await newPayment();
    const lost = await db().transaction((tx) => transitionPayment(tx, paymentId, decideTransition('pending', 'approved', NO_FINAL_CHANGE)));
    expect(lost).toBeNull();
    expect(await statusOf(paymentId)).toBe('init');
    const moved = await db().transaction((tx) =>
      transitionPayment(tx, paymentId, decideTransition('init', 'declined', NO_FINAL_CHANGE), { declineReason: 'test' }),
    );
    expect(moved).toMatchObject({ status: 'declined', declineReason: 'test' });
    expect(moved!.finalizedAt).toBeInstanceOf(Date);
  });

  it('lets exactly one of two racing transitions from the same status win', async () => {
    const paymentId = await newPayment();
    const results = await Promise.all([
      db().transaction((tx) => transitionPayment(tx, paymentId, decideTransition('init', 'approved', NO_FINAL_CHANGE))),
      db().transaction((tx) => transitionPayment(tx, paymentId, decideTransition('init', 'declined', NO_FINAL_CHANGE), { declineReason: 'race' })),
    ]);
    expect(results.filter((row) => row !== null)).toHaveLength(1);
    expect(['approved', 'declined']).toContain(await statusOf(paymentId));
  });

  it('throws on an illegal transition before anything is written', async () => {
    const paymentId = await newPayment();
    expect(() => decideTransition('init', 'refunded', NO_FINAL_CHANGE)).toThrow(IllegalTransitionError);
    await db().transaction((tx) => transitionPayment(tx, paymentId, decideTransition('init', 'declined', NO_FINAL_CHANGE), { declineReason: 'final' }));
    expect(() => decideTransition('declined', 'approved', NO_FINAL_CHANGE)).toThrow(IllegalTransitionError);
    expect(await statusOf(paymentId)).toBe('declined');
  });

  it('refuses a status written beside the state machine', async () => {
    const paymentId = await newPayment();
    await expect(updatePayment(db(), paymentId, { status: 'approved' } as never)).rejects.toThrow(/writeStatusChange/);
    expect(await statusOf(paymentId)).toBe('init');
  });

  describe('expiry', () => {
    // A pending payment past its lifetime is asked once more first: test/payments/integration/pending-expiry.test.ts.
    it('expires an init payment past its expires_at once, and queues one notification', async () => {
      const due = await newPayment();
      const later = await newPayment();
      await db().execute(sql`update payments set expires_at = now() - interval '1 second' where id = ${due}`);
      await db().execute(sql`update payments set expires_at = now() + interval '1 hour' where id = ${later}`);

      await expireDuePayments(deps());
      await expireDuePayments(deps());
      expect(await statusOf(due)).toBe('expired');
      expect((await findPaymentById(db(), due))!.finalizedAt).toBeInstanceOf(Date);
      expect(await notifications(due)).toBe(1);
      expect(await statusOf(later)).toBe('init');
    });

    it('expires a backlog larger than one batch in one pass', async () => {
      const backlog = 250;
      await db().execute(sql`
        insert into payments (token, merchant_id, environment, request_variant, status, product, amount_minor, currency,
                              gateway_amount_minor, gateway_currency, locale, expires_at)
        select md5('backlog' || n), ${merchant.id}, 'sandbox', 'A', 'init', 'Backlog', 100, 'USD', 100, 'USD', 'en', now() - interval '1 minute'
        from generate_series(1, ${backlog}) as n`);
      expect(await expireDuePayments(deps())).toBeGreaterThanOrEqual(backlog);
      const [left] = await queryRows<{ n: number }>(
        harness.database,
        sql`select count(*)::int as n from payments where product = 'Backlog' and status <> 'expired'`,
      );
      expect(left!.n).toBe(0);
    });

    it('refuses card data for a payment that expired first (the submit loses the race cleanly)', async () => {
      const paymentId = await newPayment();
      await db().execute(sql`update payments set expires_at = now() - interval '1 second' where id = ${paymentId}`);
      await expireDuePayments(deps());
      expect(await db().transaction((tx) => markProcessing(tx, paymentId, {}, 'system'))).toBeNull();
      expect(await statusOf(paymentId)).toBe('expired');
    });
  });
});
