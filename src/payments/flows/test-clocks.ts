import { randomHex } from '../../platform/lib/crypto.ts';
import type { Db } from '../../platform/database.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import {
  advanceSpanMs,
  initialOffsetMs,
  TEST_CLOCK_TOKEN_PREFIX,
  TEST_CLOCKS_PER_MERCHANT_MAX,
  testClockNow,
  type AdvanceRequest,
} from '../domain/test-clock.ts';
import type { MerchantScope } from '../store/payments-repo.ts';
import {
  findTestClock,
  insertTestClock,
  listTestClocks,
  lockTestClock,
  recordClockAdvance,
  shiftClockTimelines,
  type TestClockWithCount,
} from '../store/test-clocks-repo.ts';

// Sandbox test clocks (issue 23). A clock's time is the wall clock's plus its offset. Advancing it by Δ moves the
// timelines of its payments Δ into the past (store/test-clocks-repo.ts shiftClockTimelines), so every worker and
// every deadline rule acts on them by the wall clock as usual: no query of the hot path knows clocks exist.

const CLOCK_TOKEN_BYTES = 12; // clock_ + 24 lowercase hex characters

export interface TestClockView {
  token: string;
  name: string | null;
  now: Date; // the clock's time: the wall clock's plus its offset
  createdAt: Date;
  paymentCount: number;
}

function viewOf(clock: Omit<TestClockWithCount, 'paymentCount'>, paymentCount: number, wallNow = new Date()): TestClockView {
  return { token: clock.token, name: clock.name, now: testClockNow(clock.offsetMs, wallNow), createdAt: clock.createdAt, paymentCount };
}

// Test clocks exist in the sandbox only; a production key is told so, whatever it asked.
function assertSandbox(scope: MerchantScope): void {
  if (scope.environment !== 'sandbox') {
    throw new ApiError('sandbox_only', 403, 'test clocks are for the sandbox: use a sandbox key (sk_sandbox_…)');
  }
}

function notFound(): ApiError {
  return new ApiError('not_found', 404, 'no test clock of this merchant has this id');
}

export async function createTestClock(db: Db, scope: MerchantScope, input: { name?: string | undefined; frozenTime?: string | undefined }) {
  assertSandbox(scope);
  const offsetMs = initialOffsetMs(input.frozenTime, new Date());
  const token = `${TEST_CLOCK_TOKEN_PREFIX}${randomHex(CLOCK_TOKEN_BYTES)}`;
  const clock = await insertTestClock(db, { token, merchantId: scope.merchantId, name: input.name ?? null, offsetMs }, TEST_CLOCKS_PER_MERCHANT_MAX);
  if (clock === null) {
    throw new ApiError('test_clock_limit', 409, `a merchant keeps at most ${TEST_CLOCKS_PER_MERCHANT_MAX} test clocks`);
  }
  return viewOf(clock, 0);
}

export async function getTestClock(db: Db, scope: MerchantScope, token: string): Promise<TestClockView> {
  assertSandbox(scope);
  const clock = await findTestClock(db, scope.merchantId, token);
  if (clock === null) throw notFound();
  return viewOf(clock, clock.paymentCount);
}

export async function listMerchantTestClocks(db: Db, scope: MerchantScope): Promise<TestClockView[]> {
  assertSandbox(scope);
  const wallNow = new Date();
  return (await listTestClocks(db, scope.merchantId, TEST_CLOCKS_PER_MERCHANT_MAX)).map((clock) => viewOf(clock, clock.paymentCount, wallNow));
}

// One transaction under the clock's row lock (concurrent advances of a clock run one after the other): the payments'
// timelines move, then the offset; the workers are woken by the NOTIFY that leaves with the commit
// (flows/test-clock-wake.ts). A worker mid-pass may act on a payment just before its timeline moves: it sees the
// payment as it was, as it would have a moment earlier.
export async function advanceTestClock(db: Db, scope: MerchantScope, token: string, advance: AdvanceRequest): Promise<TestClockView> {
  assertSandbox(scope);
  const advanced = await db.transaction(async (tx) => {
    const clock = await lockTestClock(tx, scope.merchantId, token);
    if (clock === null) throw notFound();
    const spanMs = advanceSpanMs(advance, clock.offsetMs, new Date());
    const shifted = await shiftClockTimelines(tx, clock.id, spanMs);
    return { clock: await recordClockAdvance(tx, clock.id, clock.offsetMs + spanMs), paymentCount: shifted.payments };
  });
  return viewOf(advanced.clock, advanced.paymentCount);
}
