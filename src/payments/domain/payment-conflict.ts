// A late answer that contradicts a payment's final status (issue 18 item 3). Without the gateway's
// enable_change_final_status the status is kept (ARCHITECTURE principle 3) and the disagreement is recorded as a
// conflict for an operator to accept or dismiss; it is never swallowed.
import { decideTransition, type PaymentStatus, type PaymentTransition, type ReportedStatus } from './payment-status.ts';

export const CONFLICT_SOURCES = ['callback', 'status'] as const;
export type ConflictSource = (typeof CONFLICT_SOURCES)[number];
export const CONFLICT_REPORTED_STATUSES = ['approved', 'declined'] as const;
export type ConflictReportedStatus = (typeof CONFLICT_REPORTED_STATUSES)[number];
export const CONFLICT_RESOLUTIONS = ['accepted', 'dismissed'] as const;
export type ConflictResolution = (typeof CONFLICT_RESOLUTIONS)[number];
export type ConflictAction = 'accept' | 'dismiss';

// An unresolved conflict older than this is reported by the ledger check.
export const CONFLICT_UNRESOLVED_HOURS_MAX = 24;

// The final statuses a report contradicts: approved after declined or expired (the acquirer may hold the
// customer's money), declined after approved (the merchant may have shipped unpaid goods).
const CONTRADICTED_BY: Readonly<Record<ConflictReportedStatus, readonly PaymentStatus[]>> = {
  approved: ['declined', 'expired'],
  declined: ['approved'],
};

// The status a report contradicts, when the state machine did not apply it: the conflict's reported status, or null.
export function contradictedStatus(current: PaymentStatus, reported: ReportedStatus): ConflictReportedStatus | null {
  if (reported === 'pending') return null;
  return CONTRADICTED_BY[reported].includes(current) ? reported : null;
}

// An operator's accept applies the reported status as the gateway's enable_change_final_status would have: the one
// decision allowed to change a final status without it. Null when the payment has moved where that is not allowed
// (refunded, say), or already has the reported status.
export function acceptedTransition(current: PaymentStatus, reported: ConflictReportedStatus): PaymentTransition | null {
  if (current === reported || !CONTRADICTED_BY[reported].includes(current)) return null;
  return decideTransition(current, reported, { allowFinalChange: true });
}

export function resolutionOf(action: ConflictAction): ConflictResolution {
  return action === 'accept' ? 'accepted' : 'dismissed';
}
