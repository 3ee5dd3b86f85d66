import { decideBankAccountAction, type BankAccountAction } from '../domain/bank-account-status.ts';
import type { BankAccountStatus } from '../domain/core-banking-values.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { changeBankAccount, findBankAccount, listOperatorBankAccounts, type BankAccountChange, type BankAccountRow } from '../store/bank-accounts-repo.ts';
import type { Db } from '../../platform/database.ts';

export const OPERATOR_BANK_ACCOUNT_PAGE_SIZE = 50;

// Operators review the bank accounts clients add (admin API): the queue, and each move of domain/bank-account-status.ts.
export async function listBankAccountsForReview(
  db: Db,
  query: { status: BankAccountStatus | null; profileId: number | null; page: number },
): Promise<BankAccountRow[]> {
  const { page, ...filter } = query;
  return listOperatorBankAccounts(db, { ...filter, limit: OPERATOR_BANK_ACCOUNT_PAGE_SIZE, offset: (page - 1) * OPERATOR_BANK_ACCOUNT_PAGE_SIZE });
}

// outer_id (approve only): the record's id at the external provider that opened it, when there is one.
export async function reviewBankAccount(
  db: Db,
  id: number,
  action: BankAccountAction,
  options: { outerId?: string | undefined } = {},
): Promise<BankAccountRow> {
  if (options.outerId !== undefined && action !== 'approve') {
    throw new ApiError('invalid_field', 422, 'outer_id is taken by approve only', [
      { code: 'invalid_field', field: 'outer_id', message: 'is taken by approve only' },
    ]);
  }
  const record = await findBankAccount(db, id);
  if (record === null) throw new ApiError('not_found', 404, 'bank account not found');
  const decision = decideBankAccountAction(record.status, action);
  if (!decision.ok) throw new ApiError('invalid_state', 409, decision.reason);
  const change: BankAccountChange = { status: decision.to };
  if (action === 'verify') change.verified = true;
  if (action === 'approve' && options.outerId !== undefined) change.outerId = options.outerId;
  const changed = await changeBankAccount(db, id, decision.from, change);
  if (changed === null) throw new ApiError('invalid_state', 409, 'the bank account changed meanwhile: read it again');
  return changed;
}
