import {
  basisPointsToPercent,
  COMMISSION_FIXED_MINOR_MAX,
  COMMISSION_OPERATIONS,
  percentToBasisPoints,
  type CommissionOperation,
  type CommissionTerms,
} from '../domain/commission.ts';
import { ApiError, type ErrorItem } from '../../platform/lib/errors.ts';
import type { Db } from '../../platform/database.ts';
import { changeCommissions, findCommissions, type CommissionChanges, type MerchantCommissions } from '../store/commissions-repo.ts';

// The admin API's form of one operation's terms: percent (2.5 = 2.5 %) and fixed minor units.
interface CommissionTermsInput {
  percent: number;
  fixed: number;
}

export type CommissionChangesInput = Partial<Record<CommissionOperation, CommissionTermsInput | null>>;

export type PresentedCommissions = Record<CommissionOperation, CommissionTermsInput | null>;

export async function getMerchantCommissions(db: Db, merchantId: number): Promise<PresentedCommissions> {
  const terms = await findCommissions(db, merchantId);
  if (!terms) throw merchantNotFound(merchantId);
  return present(terms);
}

// A missing operation keeps its terms, null removes them; every field error is reported at once, nothing is
// written unless all are valid.
export async function setMerchantCommissions(db: Db, merchantId: number, input: CommissionChangesInput): Promise<PresentedCommissions> {
  const changes: CommissionChanges = {};
  const errors: ErrorItem[] = [];
  for (const operation of COMMISSION_OPERATIONS) {
    const given = input[operation];
    if (given === undefined) continue;
    if (given === null) {
      changes[operation] = null;
      continue;
    }
    const terms = termsOf(operation, given, errors);
    if (terms) changes[operation] = terms;
  }
  if (errors.length > 0) throw new ApiError('invalid_field', 422, 'the commission terms break the rules', errors);
  const stored = await changeCommissions(db, merchantId, changes);
  if (!stored) throw merchantNotFound(merchantId);
  return present(stored);
}

function termsOf(operation: CommissionOperation, given: CommissionTermsInput, errors: ErrorItem[]): CommissionTerms | null {
  const percentBp = percentToBasisPoints(given.percent);
  if (percentBp === null) {
    errors.push({ code: 'invalid_field', field: `${operation}.percent`, message: 'must be a percentage from 0 to 100 with at most two decimals' });
  }
  const fixedValid = Number.isSafeInteger(given.fixed) && given.fixed >= 0 && given.fixed <= COMMISSION_FIXED_MINOR_MAX;
  if (!fixedValid) {
    errors.push({
      code: 'invalid_field',
      field: `${operation}.fixed`,
      message: `must be a whole number of minor units from 0 to ${COMMISSION_FIXED_MINOR_MAX}`,
    });
  }
  return percentBp !== null && fixedValid ? { percentBp, fixedMinor: given.fixed } : null;
}

function present(terms: MerchantCommissions): PresentedCommissions {
  const presentTerms = (found: CommissionTerms | undefined) => (found ? { percent: basisPointsToPercent(found.percentBp), fixed: found.fixedMinor } : null);
  return { pay: presentTerms(terms.pay), payout: presentTerms(terms.payout), refund: presentTerms(terms.refund) };
}

const merchantNotFound = (merchantId: number) => new ApiError('not_found', 404, `merchant ${merchantId} not found`);
