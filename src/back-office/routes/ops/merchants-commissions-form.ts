import { COMMISSION_OPERATIONS, type CommissionChangesInput, type PresentedCommissions } from '../../../ledger/index.ts';
import { ApiError, type ErrorItem } from '../../../platform/lib/errors.ts';
import { formText } from '../../pages/machinery.ts';

// The commissions form: per operation a percent and a fixed part (minor units); both blank removes the terms. The
// numbers are read here; their rules (two decimals, 0–100 %, the fixed bound) are the ledger flow's, as for the API.

export type CommissionFormValues = Record<string, string>; // <operation>_percent, <operation>_fixed

const NUMBER_TEXT = /^[0-9]{1,16}(\.[0-9]{1,16})?$/;
const WHOLE_NUMBER_TEXT = /^[0-9]{1,16}$/;

export function commissionFormValuesOf(commissions: PresentedCommissions): CommissionFormValues {
  return Object.fromEntries(
    COMMISSION_OPERATIONS.flatMap((operation) => {
      const terms = commissions[operation];
      return [
        [`${operation}_percent`, terms === null ? '' : String(terms.percent)],
        [`${operation}_fixed`, terms === null ? '' : String(terms.fixed)],
      ];
    }),
  );
}

export function commissionFormValuesOfBody(body: unknown): CommissionFormValues {
  return Object.fromEntries(
    COMMISSION_OPERATIONS.flatMap((operation) => [`${operation}_percent`, `${operation}_fixed`].map((name) => [name, formText(body, name).trim()])),
  );
}

// Every operation's terms as the form gives them, or a 422 naming each field that is not a number.
export function commissionChangesOfForm(values: CommissionFormValues): CommissionChangesInput {
  const changes: CommissionChangesInput = {};
  const problems: ErrorItem[] = [];
  for (const operation of COMMISSION_OPERATIONS) {
    const percent = values[`${operation}_percent`] ?? '';
    const fixed = values[`${operation}_fixed`] ?? '';
    if (percent === '' && fixed === '') {
      changes[operation] = null;
      continue;
    }
    if (!NUMBER_TEXT.test(percent)) problems.push(problem(`${operation}.percent`, 'must be a percentage such as 2.5 (0 for none)'));
    if (!WHOLE_NUMBER_TEXT.test(fixed)) problems.push(problem(`${operation}.fixed`, 'must be a whole number of minor units (0 for none)'));
    changes[operation] = { percent: Number(percent), fixed: Number(fixed) };
  }
  if (problems.length > 0) throw new ApiError('invalid_field', 422, 'the commission terms break the rules', problems);
  return changes;
}

function problem(field: string, message: string): ErrorItem {
  return { code: 'invalid_field', field, message };
}
