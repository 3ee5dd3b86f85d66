import type { Db } from '../../platform/database.ts';
import { listDisputeStatusEvents, type DisputeStatusEvent } from '../store/dispute-history-repo.ts';
import type { DisputeRecord } from '../store/disputes-repo.ts';
import type { MerchantScope } from '../store/payments-repo.ts';
import { getDispute } from './disputes.ts';

export interface DisputeDetail {
  dispute: DisputeRecord;
  history: DisputeStatusEvent[]; // oldest first: the opening, then each move
}

// One dispute with the statuses it went through: of the merchant's scope (another's token is a 404), or of any
// merchant for an operator. A dispute whose events were queued before they kept snapshots tells what its row knows:
// opened, and resolved when it was.
export async function getDisputeDetail(db: Db, reach: MerchantScope | { anyMerchant: true }, token: string): Promise<DisputeDetail> {
  const dispute = await getDispute(db, 'anyMerchant' in reach ? { operator: true } : { scope: reach }, token);
  const events = await listDisputeStatusEvents(db, dispute);
  const history =
    events.length > 0
      ? events
      : [
          { status: 'open', occurredAt: dispute.createdAt.toISOString() },
          ...(dispute.resolvedAt ? [{ status: dispute.status, occurredAt: dispute.resolvedAt.toISOString() }] : []),
        ];
  return { dispute, history };
}
