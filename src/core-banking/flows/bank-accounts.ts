import { BANK_ACCOUNTS_PER_PROFILE_MAX, checkNewBankAccount, normalizeAccountValue, type BankAccountInput } from '../domain/bank-account-rules.ts';
import { decideBankAccountAction, INITIAL_BANK_ACCOUNT_STATUS } from '../domain/bank-account-status.ts';
import type { BankAccountProvider } from '../domain/core-banking-values.ts';
import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import { randomHex } from '../../platform/lib/crypto.ts';
import { changeBankAccount, countLiveBankAccounts, findProfileBankAccount, insertBankAccount, type BankAccountRow } from '../store/bank-accounts-repo.ts';
import type { Db } from '../../platform/database.ts';
import { lockProfile } from '../store/profiles-repo.ts';
import { invalidFields, limitReached, notFound } from '../domain/core-refusals.ts';

export interface BankAccountDeps {
  db: Db;
  currencies: CurrencyTable;
}

// What a client may set on a new record. status, approved, verified, id and token of spec 2.6's request are the
// service's to decide (a new record is pending, unverified, with an id and token of its own): accepted, ignored.
export interface NewBankAccountRequest extends BankAccountInput {
  accountHolder?: string | undefined;
  bankName?: string | undefined;
  bankAddress?: string | undefined;
  recipientName?: string | undefined;
  recipientAddress?: string | undefined;
  refCode?: string | undefined;
  paymentSystem?: string | undefined;
}

// POST /api/v1/bank_accounts/new: the record is checked, then stored pending, within the profile's limit (the
// profile row is locked so two requests cannot both take the last place).
export async function createBankAccount(deps: BankAccountDeps, profileId: number, request: NewBankAccountRequest): Promise<BankAccountRow> {
  const check = checkNewBankAccount(request, (code) => deps.currencies.has(code));
  if (!check.ok) throw invalidFields(check.problems);
  const { account } = check;
  return deps.db.transaction(async (tx) => {
    await lockProfile(tx, profileId);
    if ((await countLiveBankAccounts(tx, profileId)) >= BANK_ACCOUNTS_PER_PROFILE_MAX) {
      throw limitReached('too_many_bank_accounts', `a profile keeps at most ${BANK_ACCOUNTS_PER_PROFILE_MAX} bank accounts: delete one first`);
    }
    return insertBankAccount(tx, {
      profileId,
      token: randomHex(16),
      status: INITIAL_BANK_ACCOUNT_STATUS,
      provider: request.provider,
      value: account.value,
      currency: account.currency,
      swiftCode: account.swiftCode,
      ukSortCode: account.ukSortCode,
      ukAccountNumber: account.ukAccountNumber,
      accountNumber: account.accountNumber,
      accountHolder: request.accountHolder ?? null,
      bankName: request.bankName ?? null,
      bankAddress: request.bankAddress ?? null,
      recipientName: request.recipientName ?? null,
      recipientAddress: request.recipientAddress ?? null,
      refCode: request.refCode ?? null,
      paymentSystem: request.paymentSystem ?? null,
      details: account.details,
    });
  });
}

export interface DeleteBankAccountRequest {
  id: number;
  accountNumber?: string | undefined;
  provider?: BankAccountProvider | undefined;
}

// POST /api/v1/bank_accounts/delete: closes the record (kept for the transfers that name it, hidden from the
// list). account_number and provider, when given, must describe the same record; deleting a closed one again
// succeeds.
export async function deleteBankAccount(db: Db, profileId: number, request: DeleteBankAccountRequest): Promise<BankAccountRow> {
  const record = await findProfileBankAccount(db, profileId, request.id);
  if (record === null || !matches(record, request)) throw notFound('bank_account', 'no bank account of this profile has this id, account number and provider');
  if (record.status === 'closed') return record;
  const decision = decideBankAccountAction(record.status, 'close');
  if (!decision.ok) throw new Error(decision.reason); // every status but closed may close
  return (await changeBankAccount(db, record.id, decision.from, { status: decision.to })) ?? { ...record, status: 'closed' };
}

function matches(record: BankAccountRow, request: DeleteBankAccountRequest): boolean {
  if (request.provider !== undefined && request.provider !== record.provider) return false;
  if (request.accountNumber === undefined) return true;
  const given = normalizeAccountValue(request.accountNumber);
  return [record.accountNumber, record.value, record.ukAccountNumber].includes(given);
}
