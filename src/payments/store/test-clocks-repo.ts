import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../platform/database.ts';
import { merchants, payments, testClocks } from './schema.ts';

// Every process's workers wake when a clock was advanced (NOTIFY on commit): its payments' deadlines moved.
export const TEST_CLOCKS_CHANNEL = 'payrail_test_clocks';

export type TestClockRow = typeof testClocks.$inferSelect;

export interface TestClockWithCount extends TestClockRow {
  paymentCount: number;
}

// Spelled out: inside a select of test_clocks alone, drizzle names columns without their table.
const WITH_COUNT = {
  ...getClockColumns(),
  paymentCount: sql<number>`(select count(*) from payments counted where counted.test_clock_id = test_clocks.id)::int`.mapWith(Number),
};

function getClockColumns() {
  const { id, token, merchantId, name, offsetMs, createdAt, updatedAt } = testClocks;
  return { id, token, merchantId, name, offsetMs, createdAt, updatedAt };
}

// A new clock, unless the merchant has clocksMax already: counted under the merchant's row lock, so two concurrent
// creations cannot both take the last place. null: the merchant is at its limit.
export async function insertTestClock(
  db: Db,
  clock: { token: string; merchantId: number; name: string | null; offsetMs: number },
  clocksMax: number,
): Promise<TestClockRow | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from ${merchants} where ${merchants.id} = ${clock.merchantId} for no key update`);
    const [held] = await tx.select({ clocks: count() }).from(testClocks).where(eq(testClocks.merchantId, clock.merchantId));
    if ((held?.clocks ?? 0) >= clocksMax) return null;
    const [inserted] = await tx.insert(testClocks).values(clock).returning();
    if (!inserted) throw new Error('test clock insert returned no row');
    return inserted;
  });
}

export async function findTestClock(db: DbOrTx, merchantId: number, token: string): Promise<TestClockWithCount | null> {
  const [row] = await db
    .select(WITH_COUNT)
    .from(testClocks)
    .where(and(eq(testClocks.token, token), eq(testClocks.merchantId, merchantId)));
  return row ?? null;
}

// The merchant's clocks, newest first; a merchant holds at most TEST_CLOCKS_PER_MERCHANT_MAX, limit bounds it anyway.
export async function listTestClocks(db: Db, merchantId: number, limit: number): Promise<TestClockWithCount[]> {
  return db.select(WITH_COUNT).from(testClocks).where(eq(testClocks.merchantId, merchantId)).orderBy(desc(testClocks.id)).limit(limit);
}

export async function countClockPayments(db: DbOrTx, clockId: number): Promise<number> {
  const [row] = await db.select({ payments: count() }).from(payments).where(eq(payments.testClockId, clockId));
  return row?.payments ?? 0;
}

// The clock's row, locked until the transaction ends: advances of one clock run one after the other.
export async function lockTestClock(tx: Tx, merchantId: number, token: string): Promise<TestClockRow | null> {
  const [row] = await tx
    .select()
    .from(testClocks)
    .where(and(eq(testClocks.token, token), eq(testClocks.merchantId, merchantId)))
    .for('update');
  return row ?? null;
}

export interface ShiftedTimelines {
  payments: number;
  openWork: number;
}

const FINAL_PAY_STATUSES = sql.raw(`'approved', 'declined', 'expired', 'cancelled', 'refunded'`);

// Moves every timeline of the clock's payments spanMs into the past, in the caller's transaction: the payment's own
// times and deadlines, and the due times of its open outbox work. A final pay's daily-stats contribution is keyed
// by its created_at's UTC day (migration 0012): where that day changes, the contribution moves with it (-1 on the
// old day, +1 on the new one), computed by the same functions the trigger uses.
export async function shiftClockTimelines(tx: Tx, clockId: number, spanMs: number): Promise<ShiftedTimelines> {
  const span = sql`(${spanMs}::float8 * interval '1 millisecond')`;
  const result = await tx.execute<{ payments: number; open_work: number }>(sql`
    with shifted as (
      update ${payments} set
        created_at = created_at - ${span},
        expires_at = expires_at - ${span},
        authorized_until = authorized_until - ${span},
        last_recurring_charge_at = last_recurring_charge_at - ${span},
        finalized_at = finalized_at - ${span}
      where test_clock_id = ${clockId}
      returning id, merchant_id, environment, operation_type, status, created_at, currency, decline_reason,
        recurring_token, wallet_token, bank_account, card_mask, amount_minor, captured_minor
    ), moved_work as (
      update outbox set due_at = due_at - ${span}
      where done_at is null and payment_id in (select id from shifted)
      returning id
    ), moved_stats as (
      insert into payment_stat_deltas (merchant_id, environment, day, currency, status, decline_class, method, count, volume_minor)
      select s.merchant_id, s.environment, side.day, s.currency, s.status,
        case when s.status = 'declined' then payment_decline_class(s.decline_reason) end,
        payment_stat_method(s.recurring_token, s.wallet_token, s.bank_account, s.card_mask),
        side.sign, side.sign * payment_stat_volume(s.status, s.amount_minor, s.captured_minor)
      from shifted s
      cross join lateral (values
        (-1, ((s.created_at + ${span}) at time zone 'UTC')::date),
        (1, (s.created_at at time zone 'UTC')::date)
      ) as side(sign, day)
      where s.operation_type = 'pay' and s.status in (${FINAL_PAY_STATUSES})
        and ((s.created_at + ${span}) at time zone 'UTC')::date <> (s.created_at at time zone 'UTC')::date
      returning id
    )
    select (select count(*) from shifted)::int as payments, (select count(*) from moved_work)::int as open_work,
      (select count(*) from moved_stats)::int as stats`);
  const [row] = result.rows;
  return { payments: Number(row?.payments ?? 0), openWork: Number(row?.open_work ?? 0) };
}

// The clock's new offset, and a NOTIFY that leaves with the commit.
export async function recordClockAdvance(tx: Tx, clockId: number, offsetMs: number): Promise<TestClockRow> {
  const [row] = await tx.update(testClocks).set({ offsetMs, updatedAt: new Date() }).where(eq(testClocks.id, clockId)).returning();
  if (!row) throw new Error(`test clock ${clockId} vanished under its lock`);
  await tx.execute(sql`select pg_notify(${TEST_CLOCKS_CHANNEL}, '')`);
  return row;
}

export async function testClockTokenOf(db: DbOrTx, clockId: number): Promise<string | null> {
  const [row] = await db.select({ token: testClocks.token }).from(testClocks).where(eq(testClocks.id, clockId));
  return row?.token ?? null;
}
