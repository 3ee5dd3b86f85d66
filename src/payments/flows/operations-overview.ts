import type { Db } from '../../platform/database.ts';
import {
  checkedOverviewRange,
  OVERVIEW_LOG_ROWS_SCANNED_MAX,
  OVERVIEW_STUCK_COUNT_MAX,
  OVERVIEW_STUCK_LISTED_MAX,
  outboxLagOf,
  rateOf,
  scanCoverageOf,
  type AdapterTraffic,
  type NotificationHealth,
  type OperationsOverview,
  type OutboxLag,
  type OverviewQuery,
  type OverviewRange,
  type StuckPayments,
} from '../domain/operations-overview.ts';
import {
  findAdapterExchangeCounts,
  findDayCurrencyTotals,
  findDeclineClassDays,
  findNotificationAttemptCounts,
  findStuckPayments,
} from '../store/operations-overview-repo.ts';
import { paymentsPastTheirLifetime } from './due-payments.ts';
import { outboxBacklog } from './outbox-work.ts';

// The operator console's Overview across every merchant (domain/operations-overview.ts says what each figure means).
// The payment figures are of one environment: the daily aggregates (they lag the payments by about one worker poll
// interval), the adapter exchanges and the notification attempts. The queues and the stuck payments are
// service-wide: the workers serve both environments. Every read is bounded: the aggregates by the range (at most
// DAILY_STATS_RANGE_DAYS_MAX days, one primary-key range per merchant), the log tables by OVERVIEW_LOG_ROWS_SCANNED_MAX
// rows, the outbox by its open rows (outbox_due_idx), the stuck payments by OVERVIEW_STUCK_COUNT_MAX (payments_expiry_idx).
export async function operationsOverview(db: Db, query: OverviewQuery): Promise<OperationsOverview> {
  const range = checkedOverviewRange(query);
  const [days, declineClassesByDay, adapterTraffic, attempts, backlog, stuckPayments] = await Promise.all([
    findDayCurrencyTotals(db, range),
    findDeclineClassDays(db, range),
    adapterTrafficOf(db, range),
    findNotificationAttemptCounts(db, range, OVERVIEW_LOG_ROWS_SCANNED_MAX),
    outboxBacklog(db),
    stuckPaymentsOf(db),
  ]);
  const generatedAt = new Date();
  const outbox: OutboxLag[] = backlog.map((topic) => outboxLagOf(topic, generatedAt)).sort((left, right) => left.topic.localeCompare(right.topic));
  const topicLag = (topic: string) => outbox.find((lag) => lag.topic === topic);
  const notificationLag = topicLag('notification');
  const notifications: NotificationHealth = {
    due: notificationLag?.due ?? 0,
    open: notificationLag?.open ?? 0,
    oldestDueAt: notificationLag?.oldestDueAt ?? null,
    ...attempts.counts,
    failureRate: rateOf(attempts.counts.failedCount, attempts.counts.attemptCount),
    coverage: scanCoverageOf(range, attempts.rowsScanned, attempts.oldestScannedAt),
  };
  const statusCheckLag = topicLag('status_check');
  return {
    ...range,
    generatedAt,
    days: days.map((day) => ({ ...day, approvalRate: rateOf(day.approvedCount, day.count) })),
    declineClassesByDay,
    adapterTraffic,
    notifications,
    outbox,
    statusCheckBacklog: { due: statusCheckLag?.due ?? 0, oldestDueAt: statusCheckLag?.oldestDueAt ?? null },
    stuckPayments,
  };
}

async function adapterTrafficOf(db: Db, range: OverviewRange): Promise<AdapterTraffic> {
  const scanned = await findAdapterExchangeCounts(db, range, OVERVIEW_LOG_ROWS_SCANNED_MAX);
  return {
    gatewayMethods: scanned.counts.map((counts) => ({ ...counts, errorRate: rateOf(counts.errorCount, counts.requestCount) })),
    coverage: scanCoverageOf(range, scanned.rowsScanned, scanned.oldestScannedAt),
  };
}

// The expiry pass's own definition and index (flows/due-payments.ts): counted up to OVERVIEW_STUCK_COUNT_MAX.
async function stuckPaymentsOf(db: Db): Promise<StuckPayments> {
  const ids = await paymentsPastTheirLifetime(db, OVERVIEW_STUCK_COUNT_MAX + 1);
  const listed = await findStuckPayments(db, ids.slice(0, OVERVIEW_STUCK_LISTED_MAX));
  return { count: Math.min(ids.length, OVERVIEW_STUCK_COUNT_MAX), countExact: ids.length <= OVERVIEW_STUCK_COUNT_MAX, listed };
}
