import type { Static } from 'typebox';
import { PROFILE_FILE_KINDS, type ProfileFileKind } from '../../domain/profile-file-rules.ts';
import type { ProfileView } from '../../flows/profiles.ts';
import { isOneOf } from '../../../platform/lib/type-guards.ts';
import type { ProfileFileRow } from '../../store/profile-files-repo.ts';
import { presentBankAccount } from '../bank-accounts/present.ts';
import type { ProfileFileSummary, ShowResponse } from './schemas.ts';

export function presentProfileFile(file: ProfileFileRow, fileIndex: number): Static<typeof ProfileFileSummary> {
  return {
    kind: kindOf(file),
    file_index: fileIndex,
    name: file.fileName,
    size: file.sizeBytes,
    content_type: file.contentType,
    created_at: file.createdAt.toISOString(),
  };
}

// The column is text; a kind outside the list would be a bug of whatever wrote the row.
function kindOf(file: ProfileFileRow): ProfileFileKind {
  if (isOneOf(PROFILE_FILE_KINDS, file.kind)) return file.kind;
  throw new Error(`profile file ${file.id} has an unknown kind ${file.kind}`);
}

// spec 2.7's profile: fullname is name and surname; a business account has no e-mail or phone of its own.
export function presentProfile(view: ProfileView): Static<typeof ShowResponse>['object']['profile'] {
  const { profile } = view;
  return {
    id: profile.id,
    email: profile.email,
    phone: profile.phone,
    name: profile.name,
    surname: profile.surname,
    fullname: [profile.name, profile.surname].filter((part) => part.trim() !== '').join(' '),
    company_name: profile.companyName,
    wallet_type: profile.walletType,
    current_currency: profile.currentCurrency,
    kyc_status: profile.kycStatus,
    wallet_pin_enabled: profile.walletPinEnabled,
    bank_accounts: view.bankAccounts.map(presentBankAccount),
    files: view.files.map(({ file, fileIndex }) => presentProfileFile(file, fileIndex)),
  };
}
