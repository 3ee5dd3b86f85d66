import type { Db } from '../store/database.ts';
import { findLedgerViolations, findOverdrawnWallets, type LedgerViolation, type OverdrawnWallet } from '../store/ledger-check-repo.ts';
import { findWalletViolations } from '../store/wallet-check-repo.ts';

export interface LedgerCheck {
  violations: LedgerViolation[];
  overdrawn: OverdrawnWallet[];
}

// The ledger's invariants over everything it holds. Overdrawn wallets are not violations: a provider may take back
// money it had approved after the merchant spent it; they are listed for the operator to follow up.
export async function checkLedger(db: Db): Promise<LedgerCheck> {
  const violations = [...(await findLedgerViolations(db)), ...(await findWalletViolations(db))]; // merchants', then profiles' wallets
  const overdrawn = await findOverdrawnWallets(db);
  return { violations, overdrawn };
}
