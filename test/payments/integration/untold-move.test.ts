import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeOf, payoutReserved } from '../../../src/ledger/domain/ledger-postings.ts';
import { postLedger } from '../../../src/ledger/store/ledger-repo.ts';
import { decideTransition, NO_FINAL_CHANGE } from '../../../src/payments/domain/payment-status.ts';
import { decideStatusChange } from '../../../src/payments/domain/status-change.ts';
import { storedPayoutCustomer } from '../../../src/payments/flows/payout-request.ts';
import type { PaymentChanges } from '../../../src/payments/store/payment-changes.ts';
import type { PaymentRow } from '../../../src/payments/store/payments-repo.ts';
import { insertPayout } from '../../../src/payments/store/payouts-repo.ts';
import { writeUntoldMove } from '../../../src/payments/store/status-writer.ts';
import { runInAuditContext } from '../../../src/platform/lib/audit-context.ts';
import { approvedPayment, usdWallet } from './disputes-fixtures.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const AMOUNT = 700;

// store/status-writer.ts writeUntoldMove: a final move of a payment nothing was told of yet (a payout its own request
// created), written by one statement without the row lock, only while the payment still has `from` and its exchange
// still holds the marker; the move's notification is the payment's first.
describe.each(engines)('a final move of a payout nothing was told of, without its lock, on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant('Untold moves');
    await approvedPayment(harness, merchant.sandboxKey, 10_000); // funds the sandbox USD wallet
  });
  afterAll(async () => {
    await harness?.close();
  });

  // What createPayout stores before it calls the adapter: the payout init, holding its /payout's marker, reserved.
  const reservedPayout = async (until: Date): Promise<PaymentRow> =>
    harness.database.db.transaction(async (tx) => {
      const orderNumber = `untold-${randomBytes(4).toString('hex')}`;
      const payout = await insertPayout(
        tx,
        {
          token: randomBytes(16).toString('hex'),
          merchantId: merchant.id,
          environment: 'sandbox',
          product: `Payout ${orderNumber}`,
          amountMinor: AMOUNT,
          currency: 'USD',
          gatewayAmountMinor: AMOUNT,
          gatewayCurrency: 'USD',
          callbackUrl: 'https://merchant.example/payouts',
          orderNumber,
          locale: 'en',
          cardMask: null,
          customer: storedPayoutCustomer({ email: 'payee@example.com', ip: null, firstName: null, lastName: null, middleName: null, phone: null }),
          bankAccount: { requisiteType: 'account', bankName: 'Example Bank', accountNumber: '408178' },
          gatewayId: null,
          gatewayAlias: 'sandbox',
          expiresAt: new Date(Date.now() + 3_600_000),
        },
        new Date(Date.now() + 60_000),
        'api',
        { kind: 'payout', until },
      );
      const terms = { percentBp: payout.commissionPercentBp, fixedMinor: payout.commissionFixedMinor };
      await postLedger(tx, payout, payoutReserved(chargeOf(payout.amountMinor, payout.currency, terms)), { paymentId: payout.id });
      return payout;
    });

  const reported: PaymentChanges = { gatewayToken: 'gw-untold' };
  const approval = (payout: PaymentRow) =>
    decideStatusChange(payout, {
      transition: decideTransition('init', 'approved', NO_FINAL_CHANGE),
      cause: 'adapter',
      changes: reported,
      logs: [{ kind: 'payout', entry: { status: 200 } }],
      now: new Date(),
      notificationEventId: `evt_${randomBytes(8).toString('hex')}`,
    });

  const written = async (paymentId: number) => {
    const [row] = await queryRows<{ status: string; exchangeKind: string | null; moves: string; events: string; postings: string }>(
      harness.database,
      sql`select p.status, p.exchange_kind as "exchangeKind",
        (select string_agg(c.from_status || '>' || c.to_status || ' ' || coalesce(c.actor, '-') || ' ' || coalesce(c.request_id, '-'), ', ' order by c.id)
          from payment_status_changes c where c.payment_id = p.id and c.from_status is not null) as moves,
        (select string_agg(o.event_sequence::text || ' ' || (o.event_snapshot -> 'payment' ->> 'status'), ', ' order by o.id)
          from outbox o where o.payment_id = p.id and o.topic = 'notification') as events,
        (select string_agg(t.kind, ', ' order by t.id) from ledger_transactions t where t.payment_id = p.id) as postings
      from payments p where p.id = ${paymentId}`,
    );
    return row;
  };

  it('moves the payout while its exchange holds the marker: released, told first (sequence 1), posted, the person’s request kept', async () => {
    const until = new Date(Date.now() + 30_000);
    const payout = await reservedPayout(until);
    const before = await usdWallet(harness.database, merchant.id);
    const context = { actor: 'member:7' as const, action: null, requestId: 'req-untold-1', ipAddress: '203.0.113.9' };
    const moved = await runInAuditContext(context, () => writeUntoldMove(harness.database.db, approval(payout), { kind: 'payout', until }));
    expect(moved).toMatchObject({ status: 'approved', gatewayToken: 'gw-untold', exchangeKind: null, exchangeUntil: null });
    expect(await written(payout.id)).toEqual({
      status: 'approved',
      exchangeKind: null,
      moves: 'init>approved member:7 req-untold-1',
      events: '1 approved',
      postings: 'payout_reserved, payout_sent',
    });
    const after = await usdWallet(harness.database, merchant.id);
    expect(after.available).toBe(before.available);
    const terms = { percentBp: payout.commissionPercentBp, fixedMinor: payout.commissionFixedMinor };
    expect(after.hold).toBe(before.hold - AMOUNT - chargeOf(AMOUNT, 'USD', terms).commissionMinor);
  });

  it('writes nothing when another exchange holds the marker, or the payout has left init', async () => {
    const until = new Date(Date.now() + 30_000);
    const payout = await reservedPayout(until);
    expect(await writeUntoldMove(harness.database.db, approval(payout), { kind: 'payout', until: new Date(until.getTime() + 1) })).toBeNull();
    expect(await writeUntoldMove(harness.database.db, approval(payout), { kind: 'pay', until })).toBeNull();
    expect(await written(payout.id)).toEqual({ status: 'init', exchangeKind: 'payout', moves: null, events: null, postings: 'payout_reserved' });
    expect(await writeUntoldMove(harness.database.db, approval(payout), { kind: 'payout', until })).toMatchObject({ status: 'approved' });
    expect(await writeUntoldMove(harness.database.db, approval(payout), { kind: 'payout', until })).toBeNull(); // no longer init
    expect(await written(payout.id)).toMatchObject({ events: '1 approved', postings: 'payout_reserved, payout_sent' });
  });

  // store/statement-with-posting.ts: outside a transaction nothing could undo a move committed without its posting.
  it('fails whole when a balance its posting debits is missing: the payout stays init, nothing is told or posted', async () => {
    const until = new Date(Date.now() + 30_000);
    const payout = await reservedPayout(until);
    const holds = sql`ledger_balances where merchant_id = ${merchant.id} and account = 'hold'`;
    const saved = await queryRows<Record<string, unknown>>(harness.database, sql`select * from ${holds}`);
    await harness.database.db.execute(sql`delete from ${holds}`); // what the ledger's invariants rule out
    try {
      await expect(writeUntoldMove(harness.database.db, approval(payout), { kind: 'payout', until })).rejects.toThrow(/a balance it debits missing/);
      expect(await written(payout.id)).toEqual({ status: 'init', exchangeKind: 'payout', moves: null, events: null, postings: 'payout_reserved' });
    } finally {
      await harness.database.db.execute(
        sql`insert into ledger_balances select * from jsonb_populate_recordset(null::ledger_balances, ${JSON.stringify(saved)}::jsonb)`,
      );
    }
  });

  it('refuses a move out of a status the merchant may have been told of, and an open move', async () => {
    const payout = await reservedPayout(new Date(Date.now() + 30_000));
    const approved = { ...payout, status: 'approved' as const };
    const refunded = decideStatusChange(approved, {
      transition: decideTransition('approved', 'refunded', NO_FINAL_CHANGE),
      cause: 'system',
      changes: {},
      now: new Date(),
      notificationEventId: 'evt_told',
    });
    await expect(writeUntoldMove(harness.database.db, refunded)).rejects.toThrow('may have events queued: lock it to move it');
    const open = decideStatusChange(payout, {
      transition: decideTransition('init', 'processing', NO_FINAL_CHANGE),
      cause: 'adapter',
      changes: {},
      now: new Date(),
      notificationEventId: 'evt_open',
    });
    await expect(writeUntoldMove(harness.database.db, open)).rejects.toThrow('an untold move is a final transition');
  });
});
