// What an import found, as the report shows it: how many items of each outcome, and per currency the provider's fees
// against the commissions Payrail charged for the same payments.

const OUTCOMES = ['matched', 'missing_in_payrail', 'missing_in_file', 'amount_mismatch', 'currency_mismatch', 'status_mismatch', 'duplicate_in_file'] as const;
type Outcome = (typeof OUTCOMES)[number];

export interface ReconciliationSummary {
  counts: Record<Outcome, number>;
  fees: {
    currency: string;
    file_fee_minor: number; // every line but duplicates
    matched_file_fee_minor: number; // the lines that found their payment
    payrail_commission_minor: number; // the ledger's fees for those payments
    difference_minor: number; // commission less the provider's fees on the same payments
  }[];
}

export function summaryOf(
  counts: readonly { outcome: string; count: number }[],
  fees: readonly { currency: string; fileFeeMinor: number; matchedFileFeeMinor: number; commissionMinor: number }[],
): ReconciliationSummary {
  const byOutcome = Object.fromEntries(OUTCOMES.map((outcome) => [outcome, 0])) as Record<Outcome, number>;
  for (const { outcome, count } of counts) {
    if (!(OUTCOMES as readonly string[]).includes(outcome)) throw new Error(`reconciliation item left without an outcome (${outcome})`);
    byOutcome[outcome as Outcome] = count;
  }
  return {
    counts: byOutcome,
    fees: fees.map((fee) => ({
      currency: fee.currency,
      file_fee_minor: fee.fileFeeMinor,
      matched_file_fee_minor: fee.matchedFileFeeMinor,
      payrail_commission_minor: fee.commissionMinor,
      difference_minor: fee.commissionMinor - fee.matchedFileFeeMinor,
    })),
  };
}
