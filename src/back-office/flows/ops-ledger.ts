import type { LedgerViolation, OverdrawnWallet } from '../../ledger/index.ts';
import { checkLedger, paymentTokensOf } from '../../payments/index.ts';
import type { Db } from '../../platform/database.ts';
import { recordAuditEvent } from './audit-log.ts';

// What a violation names, in the console's terms: the merchant, the payment (by token: the payments pages are
// addressed so), the core banking profile, the conflict.
export interface LinkedViolation extends LedgerViolation {
  merchantId: number | null;
  paymentToken: string | null;
  profileId: number | null;
  conflictId: number | null;
}

export interface LedgerCheckRun {
  violations: LinkedViolation[];
  overdrawn: OverdrawnWallet[];
}

// The console's ledger check: the admin API's checkLedger, its violations linked, and the run recorded in the audit
// log (it changes no row, so no trigger records it).
export async function runLedgerCheck(db: Db): Promise<LedgerCheckRun> {
  const { violations, overdrawn } = await checkLedger(db);
  const ids = (name: string) => [...new Set(violations.flatMap((violation) => numberRef(violation, name) ?? []))];
  const tokens = await paymentTokensOf(db, { paymentIds: ids('paymentId'), refundIds: ids('refundId'), disputeIds: ids('disputeId') });
  const linked = violations.map((violation) => {
    const byPayment = tokens.payments.get(numberRef(violation, 'paymentId') ?? 0);
    const byRefund = tokens.refunds.get(numberRef(violation, 'refundId') ?? 0);
    const byDispute = tokens.disputes.get(numberRef(violation, 'disputeId') ?? 0);
    return {
      ...violation,
      merchantId: numberRef(violation, 'merchantId'),
      paymentToken: byPayment ?? byRefund ?? byDispute ?? null,
      profileId: numberRef(violation, 'profileId'),
      conflictId: numberRef(violation, 'conflictId'),
    };
  });
  await recordAuditEvent(db, { action: 'ledger.check', subjectType: 'ledger', subjectId: 'all', after: { violations: violations.length } });
  return { violations: linked, overdrawn };
}

function numberRef(violation: LedgerViolation, name: string): number | null {
  const value = violation.ref[name];
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}
