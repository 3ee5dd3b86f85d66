import type { Db } from '../../platform/database.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { TEST_CLOCK_PAYMENTS_MAX } from '../domain/test-clock.ts';
import type { MerchantScope } from '../store/payments-repo.ts';
import { countClockPayments, findTestClock } from '../store/test-clocks-repo.ts';

// The clock a new payment lives by (its create body's testClock), or null for the wall clock. A payment's stored
// times are always written by the wall clock, whatever the clock's offset: advances move the stored times of the
// clock's payments back by each Δ, so a payment made after an advance and one made before compare as their clock
// says (flows/test-clocks.ts). The count is read before the insert: concurrent creations may pass the limit by a few.
export async function testClockOfNewPayment(db: Db, scope: MerchantScope, token: string | null | undefined): Promise<number | null> {
  if (token === null || token === undefined) return null;
  if (scope.environment !== 'sandbox') {
    const message = 'test clocks are for the sandbox: a production payment lives by the wall clock';
    throw new ApiError('sandbox_only', 422, message, [{ code: 'invalid_field', field: 'testClock', message }]);
  }
  const clock = await findTestClock(db, scope.merchantId, token);
  if (clock === null) {
    const message = 'names no test clock of this merchant (POST /api/v1/test-clocks)';
    throw new ApiError('test_clock_unknown', 422, `testClock ${message}`, [{ code: 'invalid_field', field: 'testClock', message }]);
  }
  if ((await countClockPayments(db, clock.id)) >= TEST_CLOCK_PAYMENTS_MAX) {
    throw new ApiError('test_clock_full', 409, `a test clock holds at most ${TEST_CLOCK_PAYMENTS_MAX} payments; create another clock`);
  }
  return clock.id;
}
