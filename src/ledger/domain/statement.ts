// A merchant wallet's statement (the dashboard's Balance page): the ledger transactions that moved its available
// and hold accounts, newest first, each with both balances right after it.
import type { PostingKind } from './ledger-postings.ts';

export interface WalletAmounts {
  available: number; // minor units
  hold: number;
}

export interface StatementMove {
  transactionId: number;
  createdAt: Date;
  kind: PostingKind;
  paymentToken: string | null; // the payment it is about (for a refund or a dispute: their payment)
  availableMinor: number; // signed change of available
  holdMinor: number; // signed change of hold
}

export interface StatementLine extends StatementMove {
  availableAfterMinor: number;
  holdAfterMinor: number;
}

export interface StatementPage {
  currency: string;
  lines: StatementLine[];
  nextBefore: number | null; // the cursor of the next (older) page; null: this is the last one
  balanceBefore: WalletAmounts; // the balances before the page's oldest line: the next page's starting point
}

// Walks back from the balances after the newest move: each line shows the balances after it, and the balances
// before it are those after the next (older) one.
export function withRunningBalances(after: WalletAmounts, moves: readonly StatementMove[]): { lines: StatementLine[]; before: WalletAmounts } {
  let { available, hold } = after;
  const lines = moves.map((move) => {
    const line = { ...move, availableAfterMinor: available, holdAfterMinor: hold };
    available -= move.availableMinor;
    hold -= move.holdMinor;
    if (!Number.isSafeInteger(available) || !Number.isSafeInteger(hold))
      throw new RangeError(`statement balance left the safe integers at ${move.transactionId}`);
    return line;
  });
  return { lines, before: { available, hold } };
}
