import { redactForLog } from '../../platform/lib/redact.ts';
import { compactExchangeLogs } from './payment-log-entries.ts';
import { countPaymentLogsOfKind } from '../store/callbacks-repo.ts';
import type { Tx } from '../../platform/database.ts';
import { insertPaymentLogs } from '../store/payment-logs-repo.ts';

// Each failed status lookup of a payment (or of one of its refunds) leaves one interaction log row of this kind,
// numbered: the payment's count of failed lookups is the count of these rows, and the newest says it.
const FAILED_LOOKUP_LOG_KIND = 'status_failed';

export interface FailedLookup {
  reason: string;
  exchange: { logs: readonly unknown[] }; // the request sent and what came back, compacted and redacted here
  refundToken?: string; // the lookup was a refund's
}

// In the caller's transaction, under the payment's row lock (so two lookups never take one number): the count
// including this one.
export async function recordFailedLookup(tx: Tx, paymentId: number, lookup: FailedLookup): Promise<number> {
  const failedLookups = (await countPaymentLogsOfKind(tx, paymentId, FAILED_LOOKUP_LOG_KIND)) + 1;
  const entry = {
    reason: lookup.reason,
    failed_lookups: failedLookups,
    ...(lookup.refundToken === undefined ? {} : { refund_token: lookup.refundToken }),
    exchange: { logs: compactExchangeLogs(lookup.exchange.logs) },
  };
  await insertPaymentLogs(tx, paymentId, [{ kind: FAILED_LOOKUP_LOG_KIND, entry: redactForLog(entry) }]);
  return failedLookups;
}
