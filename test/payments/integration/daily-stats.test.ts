import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DAILY_STATS_RANGE_DAYS_MAX, STAT_METHODS } from '../../../src/payments/domain/daily-stats.ts';
import { declineClassOf } from '../../../src/payments/domain/decline-class.ts';
import { decideTransition, NO_FINAL_CHANGE } from '../../../src/payments/domain/payment-status.ts';
import { foldDailyStatDeltas, readDailyStats, rebuildDailyStats, type DailyStats, type DailyStatsQuery } from '../../../src/payments/index.ts';
import { writeOutcome } from '../../../src/payments/store/outcome-statement-repo.ts';
import { DECLINE_REASONS } from '../../../src/sandbox-adapter/test-cards.ts';
import { foldDailyStats } from '../../../src/workers/daily-stats.ts';
import { startWorkers } from '../../../src/workers/runner.ts';
import { testEngines } from '../../support/databases.ts';
import { createPendingPayment, deltaCount, expectedBuckets, movePayment, storedBuckets, type StatPayment } from '../../support/daily-stats.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const DAY_1 = '2026-03-01';
const DAY_2 = '2026-03-02';
const LATE_DAY_1 = '2026-03-01T23:59:59.000Z'; // the UTC day it was created, whatever the hour
const FINALS = ['approved', 'declined', 'expired', 'refunded'] as const;

// The merchant dashboard's daily aggregates (store/tables-daily-stats.ts): the trigger's deltas, folded by the worker,
// read per day, currency, decline class and method; rebuilt from the payments; exactly a GROUP BY of the payments.
describe.each(engines)('daily payment aggregates on %s', (engine) => {
  let harness: Harness;
  let merchantId: number;
  let otherMerchantId: number;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchantId = (await harness.createMerchant('Stats merchant')).id;
    otherMerchantId = (await harness.createMerchant('Other stats merchant')).id;
  });
  afterAll(async () => harness?.close());
  // Every payment gone, with its status history, which refuses TRUNCATE as the audit log's part (migration 0018): a
  // replica session fires no trigger (this emptying between tests is the tests' own).
  const emptyPayments = () =>
    harness.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`truncate payments, payment_stat_deltas, payment_daily_stats cascade`);
    });
  beforeEach(emptyPayments);

  const database = () => harness.database;
  const deps = () => ({ context: harness.app.payrail, adapterClient: harness.app.payrail.adapterClient });
  const workerPass = async () => {
    while (await foldDailyStats(deps(), harness.app.log)) {} // a full pass: more is waiting
  };
  const payment = (overrides: Partial<StatPayment> = {}): StatPayment => ({
    merchantId,
    environment: 'production',
    currency: 'EUR',
    amountMinor: 1000,
    createdAt: `${DAY_1}T10:00:00.000Z`,
    method: 'card',
    ...overrides,
  });
  const finalPayment = async (status: (typeof FINALS)[number], overrides: Partial<StatPayment> = {}, declineReason?: string) => {
    const id = await createPendingPayment(database(), payment(overrides));
    await movePayment(database(), id, 'pending', status === 'refunded' ? 'approved' : status, declineReason);
    if (status === 'refunded') await movePayment(database(), id, 'approved', 'refunded');
    return id;
  };
  const read = (query: Partial<DailyStatsQuery> = {}): Promise<DailyStats> =>
    readDailyStats(database().db, { merchantId, environment: 'production', fromDay: DAY_1, toDay: DAY_2, ...query });

  it('folds approved and declined payments into their day, currency, decline class and method after the worker pass', async () => {
    await finalPayment('approved', { amountMinor: 1000 });
    await finalPayment('approved', { amountMinor: 250, createdAt: LATE_DAY_1, method: 'recurring' });
    await finalPayment('declined', { amountMinor: 700 }, `gateway response error: ${DECLINE_REASONS.insufficientFunds}`);
    await finalPayment('approved', { amountMinor: 300, currency: 'USD', createdAt: `${DAY_2}T00:00:00.000Z`, method: 'bank_account' });
    // the one-statement writer (the Host-to-Host /pay answer) is covered by the same trigger
    const viaOutcome = await createPendingPayment(database(), payment({ amountMinor: 90, currency: 'USD', createdAt: `${DAY_2}T08:00:00.000Z` }));
    const write = {
      expected: 'pending' as const,
      cause: 'adapter' as const,
      declineReason: 'Do not honor',
      details: {},
      logs: [],
      notificationEventId: 'e-1',
      posting: null,
    };
    await writeOutcome(database().db, viaOutcome, { ...write, transition: decideTransition('pending', 'declined', NO_FINAL_CHANGE) }, 'created');
    await createPendingPayment(database(), payment()); // still pending: counts nowhere

    expect((await read()).days).toEqual([]); // nothing folded yet: the read never looks at payments
    await workerPass();
    expect(await deltaCount(database())).toBe(0);
    expect(await read()).toEqual({
      fromDay: DAY_1,
      toDay: DAY_2,
      days: [
        { day: DAY_1, currency: 'EUR', count: 3, approvedCount: 2, approvedVolumeMinor: 1250 },
        { day: DAY_2, currency: 'USD', count: 2, approvedCount: 1, approvedVolumeMinor: 300 },
      ],
      declineClasses: [
        { declineClass: 'do_not_honor', count: 1 },
        { declineClass: 'insufficient_funds', count: 1 },
      ],
      methods: [
        { method: 'card', count: 3 },
        { method: 'bank_account', count: 1 },
        { method: 'recurring', count: 1 },
      ],
    });
    expect(await storedBuckets(database())).toEqual(await expectedBuckets(database()));
  });

  it('moves a final → final change out of its old bucket into the new one, on the day the payment was created', async () => {
    const corrected = await finalPayment('approved', { amountMinor: 400 });
    const refunded = await finalPayment('approved', { amountMinor: 600 });
    await workerPass();
    await movePayment(database(), corrected, 'approved', 'declined', DECLINE_REASONS.expiredCard); // enable_change_final_status
    await movePayment(database(), refunded, 'approved', 'refunded');
    await workerPass();
    const stats = await read();
    // a refund follows an approval: still approved for the day's rate and volume
    expect(stats.days).toEqual([{ day: DAY_1, currency: 'EUR', count: 2, approvedCount: 1, approvedVolumeMinor: 600 }]);
    expect(stats.declineClasses).toEqual([{ declineClass: 'expired_card', count: 1 }]);
    expect(await storedBuckets(database())).toMatchObject({
      [`${merchantId}|production|${DAY_1}|EUR|status|declined`]: '1 400',
      [`${merchantId}|production|${DAY_1}|EUR|status|refunded`]: '1 600',
    });
    expect(Object.keys(await storedBuckets(database()))).not.toContain(`${merchantId}|production|${DAY_1}|EUR|status|approved`);
    expect(await storedBuckets(database())).toEqual(await expectedBuckets(database()));
  });

  it('never mixes sandbox with production, one merchant with another, or payouts with payments', async () => {
    await finalPayment('approved', { amountMinor: 100 });
    await finalPayment('approved', { amountMinor: 20, environment: 'sandbox' });
    await finalPayment('declined', { amountMinor: 3, merchantId: otherMerchantId });
    await database().db.execute(sql`insert into payments (token, merchant_id, environment, operation_type, request_variant, status, product,
      amount_minor, currency, gateway_amount_minor, gateway_currency, locale, created_at)
      values ('stats-payout', ${merchantId}, 'production', 'payout', 'C', 'pending', 'Payout', 5000, 'EUR', 5000, 'EUR', 'en', ${`${DAY_1}T12:00:00Z`}::timestamptz)`);
    await database().db.execute(sql`update payments set status = 'approved' where token = 'stats-payout'`);
    await workerPass();
    const day = (volume: number, count = 1) => [{ day: DAY_1, currency: 'EUR', count, approvedCount: count, approvedVolumeMinor: volume }];
    expect((await read()).days).toEqual(day(100));
    expect((await read({ environment: 'sandbox' })).days).toEqual(day(20));
    expect((await read({ merchantId: otherMerchantId })).days).toEqual([{ day: DAY_1, currency: 'EUR', count: 1, approvedCount: 0, approvedVolumeMinor: 0 }]);
    expect((await read({ merchantId: otherMerchantId, environment: 'sandbox' })).days).toEqual([]);
  });

  it('loses nothing when workers fold side by side: the aggregates equal a GROUP BY of the payments', async () => {
    const ids: number[] = [];
    for (let index = 0; index < 120; index += 1) {
      const status = FINALS[index % FINALS.length]!;
      const overrides = {
        merchantId: index % 5 === 0 ? otherMerchantId : merchantId,
        environment: index % 3 === 0 ? ('sandbox' as const) : ('production' as const),
        currency: ['EUR', 'USD', 'JPY'][index % 3]!,
        amountMinor: 100 + index,
        createdAt: `2026-03-${String(1 + (index % 9)).padStart(2, '0')}T12:00:00.000Z`,
        method: STAT_METHODS[index % STAT_METHODS.length]!,
      };
      ids.push(await finalPayment(status, overrides, Object.values(DECLINE_REASONS)[index % 9]));
    }
    for (const id of ids.slice(0, 30)) {
      const [row] = await queryRows<{ status: string }>(database(), sql`select status from payments where id = ${id}`);
      if (row?.status === 'declined') await movePayment(database(), id, 'declined', 'approved');
      else if (row?.status === 'approved') await movePayment(database(), id, 'approved', 'declined', 'NSF');
    }
    const worker = async () => {
      while ((await foldDailyStatDeltas(database().db, 7)) > 0) {}
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    await workerPass();
    expect(await deltaCount(database())).toBe(0);
    expect(await storedBuckets(database())).toEqual(await expectedBuckets(database()));
  });

  it('rebuilds from the payments exactly what the folds built, and counts payments written before the aggregates', async () => {
    for (const [index, status] of FINALS.entries()) await finalPayment(status, { amountMinor: 10 * (index + 1), method: STAT_METHODS[index]! });
    await workerPass();
    const folded = await storedBuckets(database());
    expect(await rebuildDailyStats(database().db)).toEqual({ paymentCount: 4, bucketCount: 4 + 4 + 1 });
    expect(await storedBuckets(database())).toEqual(folded);
    // payments from before the aggregates: final already, no delta ever written
    await database().db.execute(sql`insert into payments (token, merchant_id, environment, operation_type, request_variant, status, product,
      amount_minor, currency, gateway_amount_minor, gateway_currency, locale, decline_reason, created_at)
      select 'old-' || i, ${merchantId}, 'sandbox', case when i % 4 = 0 then 'payout' else 'pay' end, 'A',
        case when i % 2 = 0 then 'approved' else 'declined' end, 'Old', i, 'GBP', i, 'GBP', 'en', '51', ${`${DAY_2}T12:00:00Z`}::timestamptz
      from generate_series(1, 40) as i`);
    await finalPayment('approved', { amountMinor: 5 }); // a delta not folded yet: the rebuild counts its payment instead
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/admin/v1/stats/rebuild',
      headers: { authorization: `Bearer ${harness.adminKey}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ success: true, paymentCount: 4 + 1 + 30 });
    await workerPass();
    expect(await deltaCount(database())).toBe(0);
    expect(await storedBuckets(database())).toEqual(await expectedBuckets(database()));
    expect((await read({ environment: 'sandbox' })).declineClasses).toEqual([{ declineClass: 'insufficient_funds', count: 20 }]);
    expect((await harness.app.inject({ method: 'POST', url: '/api/admin/v1/stats/rebuild' })).statusCode).toBe(401);
  });

  it('rebuilds while payments move and workers fold, and the aggregates still add up', async () => {
    const ids: number[] = [];
    for (let index = 0; index < 60; index += 1) ids.push(await createPendingPayment(database(), payment({ amountMinor: index + 1 })));
    let moving = true;
    const moves = (async () => {
      for (const [index, id] of ids.entries()) await movePayment(database(), id, 'pending', index % 3 === 0 ? 'declined' : 'approved', 'NSF');
      moving = false;
    })();
    const worker = async () => {
      while (moving) await foldDailyStatDeltas(database().db, 5);
    };
    const rebuilds = (async () => {
      while (moving) await rebuildDailyStats(database().db);
    })();
    await Promise.all([moves, worker(), worker(), rebuilds]);
    await workerPass();
    expect(await storedBuckets(database())).toEqual(await expectedBuckets(database()));
    expect((await read()).days).toMatchObject([{ count: 60, approvedCount: 40 }]);
  });

  it('folds to a GROUP BY of the payments whatever the moves and however the folds fall between them (property)', async () => {
    const move = fc.record({
      status: fc.constantFrom(...FINALS),
      correctTo: fc.option(fc.constantFrom('approved' as const, 'declined' as const), { nil: null }),
      day: fc.integer({ min: 1, max: 3 }),
      currency: fc.constantFrom('EUR', 'USD'),
      sandbox: fc.boolean(),
      amountMinor: fc.integer({ min: 1, max: 10_000 }),
      method: fc.constantFrom(...STAT_METHODS),
      reason: fc.constantFrom(...Object.values(DECLINE_REASONS), '54', null),
      foldAfter: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 8 }), async (moves) => {
        await emptyPayments();
        for (const step of moves) {
          const createdAt = `2026-03-0${step.day}T06:00:00.000Z`;
          const environment = step.sandbox ? ('sandbox' as const) : ('production' as const);
          const id = await finalPayment(step.status, { ...step, environment, createdAt }, step.reason ?? undefined);
          const from = step.status === 'refunded' ? null : step.status;
          if (from !== null && step.correctTo !== null && step.correctTo !== from)
            await movePayment(database(), id, from, step.correctTo, step.reason ?? 'NSF');
          if (step.foldAfter !== null) await foldDailyStatDeltas(database().db, step.foldAfter);
        }
        await workerPass();
        expect(await storedBuckets(database())).toEqual(await expectedBuckets(database()));
      }),
      { numRuns: 12, seed: 20260301 },
    );
  });

  it('classifies decline reasons in SQL exactly as domain/decline-class.ts does', async () => {
    const words = ['card', 'expired', 'insufficient funds', 'nsf', '3-D Secure', 'authentication', 'failed', 'challenge', 'do not honour', 'issuer'];
    const glue = [' ', '. ', '_', 'x', ': ', ' declined by the ', ''];
    const generated = fc.sample(fc.array(fc.oneof(fc.constantFrom(...words, ...glue), fc.constantFrom('05', '51', '54', ' ')), { maxLength: 8 }), {
      numRuns: 300,
      seed: 7,
    });
    const reasons = [...Object.values(DECLINE_REASONS), ...generated.map((parts) => parts.join('')), 'gateway response error: 54', `${'x'.repeat(1200)}nsf`];
    const [row] = await queryRows<{ classes: string[] }>(
      database(),
      sql`select array_agg(payment_decline_class(reason) order by position) as classes
        from unnest(array[${sql.join(
          reasons.map((reason) => sql`${reason}::text`),
          sql`, `,
        )}]) with ordinality as reasons(reason, position)`,
    );
    expect(row?.classes).toEqual(reasons.map((reason) => declineClassOf(reason)));
  });

  it('refuses a range that is reversed, longer than a year or not made of real days', async () => {
    const lastDay = new Date(Date.parse(`${DAY_1}T00:00:00Z`) + (DAILY_STATS_RANGE_DAYS_MAX - 1) * 86_400_000).toISOString().slice(0, 10);
    await expect(read({ toDay: lastDay })).resolves.toMatchObject({ days: [] });
    const dayAfter = new Date(Date.parse(`${lastDay}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    await expect(read({ toDay: dayAfter })).rejects.toMatchObject({ code: 'invalid_field', statusCode: 422 });
    await expect(read({ fromDay: DAY_2, toDay: DAY_1 })).rejects.toMatchObject({ code: 'invalid_field' });
    await expect(read({ fromDay: '2026-02-30' })).rejects.toMatchObject({ code: 'invalid_field' });
    await expect(read({ fromDay: '2026-3-01' })).rejects.toMatchObject({ code: 'invalid_field' });
  });

  it('is kept current by the worker loop within its poll interval', async () => {
    const workers = startWorkers(deps(), harness.app.log, 50);
    try {
      await finalPayment('approved', { amountMinor: 77 });
      await vi.waitFor(
        async () => expect((await read()).days).toEqual([{ day: DAY_1, currency: 'EUR', count: 1, approvedCount: 1, approvedVolumeMinor: 77 }]),
        {
          timeout: 5_000,
          interval: 50,
        },
      );
    } finally {
      await workers.stop();
    }
  });
});
