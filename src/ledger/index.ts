export { NO_COMMISSION, basisPointsToPercent, commissionFor, payCommissionFor } from './domain/commission.ts';
export type { CommissionTerms } from './domain/commission.ts';
export {
  UnbalancedPostingError,
  chargeOf,
  disputeHeld,
  disputeLost,
  disputeWon,
  payoutReserved,
  paymentCaptured,
  paymentReversed,
  payoutReleased,
  payoutReturned,
  payoutSent,
  posting,
  refundReleased,
  refundReserved,
  refundSent,
} from './domain/ledger-postings.ts';
export type { Charge, LedgerPosting } from './domain/ledger-postings.ts';
export { getBalance } from './flows/balance.ts';
export { VIOLATIONS_PER_RULE_MAX, findLedgerViolations, findOverdrawnWallets } from './store/ledger-check-repo.ts';
export type { LedgerViolation, OverdrawnWallet } from './store/ledger-check-repo.ts';
export {
  AVAILABLE_SHARDS,
  InsufficientBalanceError,
  ledgerTransaction,
  missingBalanceError,
  postedIdColumn,
  unpostedFailureColumn,
  guardedShortfallColumn,
  isGuardedShortfall,
  postLedger,
  assertGuardedPosted,
  guardedPostingIn,
  postingCtesIn,
  unguardedPosting,
  type LedgerScope,
  type PostingRefs,
} from './store/ledger-repo.ts';
export type { PostingShape, PostingValue } from './store/posting-statement.ts';
export { findWalletViolations } from './store/wallet-check-repo.ts';
export { InsufficientWalletError, postWalletLedger, readWalletBalances } from './store/wallet-ledger-repo.ts';
export { STATEMENT_PAGE_ROWS_MAX, getStatement } from './flows/statement.ts';
export type { StatementLine, StatementPage, WalletAmounts } from './domain/statement.ts';
export { postingsOfPayment, type PaymentPosting } from './flows/payment-postings.ts';
export { commissionsEarnedPerDay, listMerchantBalances } from './flows/ledger-overview.ts';
export type { CommissionsEarned, MerchantBalancePage } from './flows/ledger-overview.ts';
export { COMMISSION_RANGE_DAYS_MAX, type LedgerEnvironment } from './domain/ledger-overview.ts';
export { walkLedgerEntries, type LedgerExportRow } from './flows/ledger-export.ts';
export { getMerchantCommissions, setMerchantCommissions, type CommissionChangesInput, type PresentedCommissions } from './flows/commissions.ts';
export { COMMISSION_OPERATIONS } from './domain/commission.ts';
