import { CONFLICT_UNRESOLVED_HOURS_MAX } from '../domain/payment-conflict.ts';
import { FINAL_STATUSES } from '../domain/payment-status.ts';
import { findUnresolvedConflictsBefore } from '../store/conflicts-repo.ts';
import type { Db } from '../../platform/database.ts';
import { findLedgerViolations, findOverdrawnWallets, VIOLATIONS_PER_RULE_MAX, type LedgerViolation, type OverdrawnWallet } from '../../ledger/index.ts';
import { findWalletViolations } from '../../ledger/index.ts';

export interface LedgerCheck {
  violations: LedgerViolation[];
  overdrawn: OverdrawnWallet[];
}

// The ledger's invariants over everything it holds. Overdrawn wallets are not violations: a provider may take back
// money it had approved after the merchant spent it; they are listed for the operator to follow up.
export async function checkLedger(db: Db): Promise<LedgerCheck> {
  const violations = [...(await findBookViolations(db)), ...(await findWalletViolations(db)), ...(await staleConflicts(db))]; // merchants', then profiles' wallets
  const overdrawn = await findOverdrawnWallets(db);
  return { violations, overdrawn };
}

// The ledger's own invariants, with the statuses this module calls final.
export const findBookViolations = (db: Db): Promise<LedgerViolation[]> => findLedgerViolations(db, FINAL_STATUSES);

// A conflict nobody resolved within a day: the provider and the books may disagree about money (payment_conflicts).
async function staleConflicts(db: Db): Promise<LedgerViolation[]> {
  const before = new Date(Date.now() - CONFLICT_UNRESOLVED_HOURS_MAX * 3_600_000);
  const conflicts = await findUnresolvedConflictsBefore(db, before, VIOLATIONS_PER_RULE_MAX);
  return conflicts.map((conflict) => ({
    rule: 'unresolved_conflict',
    message: `conflict ${conflict.id}: payment ${conflict.paymentId} kept ${conflict.paymentStatus} but the provider reported ${conflict.reportedStatus} at ${conflict.createdAt.toISOString()}; accept or dismiss it`,
    ref: { conflictId: conflict.id, paymentId: conflict.paymentId },
  }));
}
