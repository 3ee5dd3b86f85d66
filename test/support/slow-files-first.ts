import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The files that take longest (they start servers, CLIs or Chromium of their own, or wait on real timers), slowest
// first: every file of 12 s or more in a run on a 2-core machine on 2026-11-29. A clone has no vitest cache of
// durations, so vitest would start these last (it sorts unknown files by size) and the suite would end on one of them
// with three workers idle. A file missing here only starts later; nothing else depends on the list.
export const SLOWEST_FIRST = [
  'test/platform/integration/runnable-docs.test.ts',
  'test/payments/integration/processing-h2h.test.ts',
  'test/platform/integration/cli-server-discovery.test.ts',
  'test/payments/integration/misbehaving-adapter.test.ts',
  'test/platform/integration/metrics.test.ts',
  'test/platform/integration/example-adapter.test.ts',
  'test/payments/integration/payouts-rejection.test.ts',
  'test/payments/e2e/checkout-outcome-pages.test.ts',
  'test/payments/integration/refunds-adapter.test.ts',
  'test/payments/integration/status-lookup-failures.test.ts',
  'test/payments/e2e/checkout.test.ts',
  'test/payments/integration/reconciliation-scale.test.ts',
  'test/payments/integration/reconciliation-memory.test.ts',
  'test/payments/integration/rabbit.test.ts',
  'test/payments/e2e/checkout-states.test.ts',
  'test/payments/integration/exchange-polling.test.ts',
  'test/platform/integration/runtime.test.ts',
  'test/platform/integration/slow-client.test.ts',
  'test/payments/integration/adapter-interop.test.ts',
  'test/sandbox-adapter/integration/sandbox-runtime.test.ts',
  'test/payments/integration/two-step-adapter.test.ts',
  'test/sandbox-adapter/integration/sandbox-security.test.ts',
  'test/payments/integration/payment-read-size.test.ts',
  'packages/adapter-kit/test/conformance-verdicts.test.ts',
  'test/payments/integration/daily-stats.test.ts',
  'test/back-office/e2e/ops-console.test.ts',
  'test/sandbox-adapter/integration/sandbox-shared-state.test.ts',
  'test/back-office/e2e/dashboard-journey.test.ts',
  'test/payments/integration/two-step-exchange.test.ts',
  'test/platform/integration/cli-help.test.ts',
  'test/payments/integration/payment-conflicts.test.ts',
];

const rank = (specification: TestSpecification): number => {
  const index = SLOWEST_FIRST.findIndex((file) => specification.moduleId.endsWith(`/${file}`));
  return index === -1 ? SLOWEST_FIRST.length : index;
};

export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((file, order) => ({ file, order, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map(({ file }) => file);
  }
}
