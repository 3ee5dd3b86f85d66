import { BANK_ACCOUNTS_PER_PROFILE_MAX } from '../domain/bank-account-rules.ts';
import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import type { BankAccountRow } from '../store/bank-accounts-repo.ts';
import { listBankAccounts } from '../store/bank-account-list-repo.ts';
import type { Db } from '../../platform/database.ts';
import { liveProfileFiles, type ProfileFileRow } from '../store/profile-files-repo.ts';
import { findProfile, type ProfileRow } from '../store/profiles-repo.ts';
import { invalidFields, notFound } from '../domain/core-refusals.ts';

export interface ProfileView {
  profile: ProfileRow;
  bankAccounts: BankAccountRow[];
  files: { file: ProfileFileRow; fileIndex: number }[];
}

// GET /api/v1/profiles/show (spec 2.7): the profile acted as, its bank accounts that are not closed (of one
// currency when asked: every one of them, the profile limit bounds the list) and its KYC files.
export async function showProfile(deps: { db: Db; currencies: CurrencyTable }, profileId: number, currency: string | undefined): Promise<ProfileView> {
  const code = currency?.toUpperCase();
  if (code !== undefined && !deps.currencies.has(code)) {
    throw invalidFields([{ code: 'unknown_currency', field: 'currency', message: `${code} is not an ISO 4217 code or a configured currency` }]);
  }
  const profile = await findProfile(deps.db, profileId);
  if (profile === null) throw notFound('profile', 'profile not found');
  const bankAccounts = await listBankAccounts(deps.db, { profileId, currency: code }, { limit: BANK_ACCOUNTS_PER_PROFILE_MAX, offset: 0 });
  return { profile, bankAccounts, files: indexFiles(await liveProfileFiles(deps.db, profileId)) };
}

// Numbers each file within its kind (the rows come by kind, then upload order): the file_index delete_file takes.
function indexFiles(rows: readonly ProfileFileRow[]): { file: ProfileFileRow; fileIndex: number }[] {
  const next = new Map<string, number>();
  return rows.map((file) => {
    const fileIndex = next.get(file.kind) ?? 0;
    next.set(file.kind, fileIndex + 1);
    return { file, fileIndex };
  });
}
