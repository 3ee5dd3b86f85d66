import { TEST_CARD_IN_PRODUCTION_REASON } from '../../platform/lib/sandbox-test-cards.ts';
import { type AdapterOutcome, pendingOutcome } from './adapter-outcome.ts';

// What the processing flow records for a sandbox test card sent to production: a decline that no gateway produced.
export function testCardInProductionOutcome(): AdapterOutcome {
  return { ...pendingOutcome(null), status: 'declined', declineReason: TEST_CARD_IN_PRODUCTION_REASON };
}
