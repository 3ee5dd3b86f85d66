import type { TestClockView } from '../../../flows/test-clocks.ts';

export function presentTestClock(clock: TestClockView) {
  return {
    id: clock.token,
    name: clock.name,
    now: clock.now.toISOString(),
    createdAt: clock.createdAt.toISOString(),
    paymentCount: clock.paymentCount,
  };
}
