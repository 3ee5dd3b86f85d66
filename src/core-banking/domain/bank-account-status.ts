import type { BankAccountStatus } from './core-banking-values.ts';

// The life of a bank account record (spec 2.6 names the statuses; spec 3 leaves the transitions out, so these are
// Payrail's). A client's new record starts `pending`; an operator approves or declines it, or first sends it to an
// external provider (`pending_request`) and approves or declines it on the provider's answer. The owner deleting a
// record, or an operator closing it, makes it `closed`: final, kept for the transfers that name it.
//
//   pending ──request──▶ pending_request
//   pending | pending_request ──approve──▶ approved
//   pending | pending_request ──decline──▶ declined
//   any but closed ──close──▶ closed
//   approved ──verify──▶ approved, verified (an operator confirmed who holds the account)

export const BANK_ACCOUNT_ACTIONS = ['request', 'approve', 'decline', 'close', 'verify'] as const;
export type BankAccountAction = (typeof BANK_ACCOUNT_ACTIONS)[number];

export const INITIAL_BANK_ACCOUNT_STATUS: BankAccountStatus = 'pending';

const TRANSITIONS: Readonly<Record<BankAccountAction, { from: readonly BankAccountStatus[]; to: BankAccountStatus }>> = {
  request: { from: ['pending'], to: 'pending_request' },
  approve: { from: ['pending', 'pending_request'], to: 'approved' },
  decline: { from: ['pending', 'pending_request'], to: 'declined' },
  close: { from: ['pending', 'pending_request', 'approved', 'declined'], to: 'closed' },
  verify: { from: ['approved'], to: 'approved' },
};

export type BankAccountDecision = { ok: true; from: readonly BankAccountStatus[]; to: BankAccountStatus } | { ok: false; reason: string };

// Whether the action applies to a record in `current`; `from` is what a conditional UPDATE must still find, so a
// concurrent change loses cleanly instead of being overwritten.
export function decideBankAccountAction(current: BankAccountStatus, action: BankAccountAction): BankAccountDecision {
  const transition = TRANSITIONS[action];
  if (!transition.from.includes(current)) {
    return { ok: false, reason: `a ${current} bank account cannot be ${pastTense(action)} (allowed from: ${transition.from.join(', ')})` };
  }
  return { ok: true, from: transition.from, to: transition.to };
}

// spec 2.6 `approved` (boolean) says the same as status approved.
export function isApproved(status: BankAccountStatus): boolean {
  return status === 'approved';
}

function pastTense(action: BankAccountAction): string {
  return { request: 'requested', approve: 'approved', decline: 'declined', close: 'closed', verify: 'verified' }[action];
}
