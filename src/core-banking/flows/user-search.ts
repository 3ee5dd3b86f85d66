import { normalizeEmail, normalizePhone } from '../domain/profile-contacts.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { Db } from '../../platform/database.ts';
import { searchUserRows } from '../store/user-search-repo.ts';
import type { UserRow } from '../store/user-accounts-repo.ts';

export const USER_SEARCH_TEXT_LENGTH_MAX = 100;
export const USER_SEARCH_RESULTS_MAX = 50;

// An operator's search for profiles (the console's Users page): an id, an e-mail address or phone number (their
// normal forms, exactly), or part of an e-mail address, a name or a company name. The newest matches first, at most
// USER_SEARCH_RESULTS_MAX.
export async function searchUsers(db: Db, text: string): Promise<UserRow[]> {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > USER_SEARCH_TEXT_LENGTH_MAX) {
    throw new ApiError('invalid_field', 422, `the search is 1 to ${USER_SEARCH_TEXT_LENGTH_MAX} characters`, [
      { code: 'invalid_field', field: 'q', message: `must be 1 to ${USER_SEARCH_TEXT_LENGTH_MAX} characters` },
    ]);
  }
  const id = /^[0-9]{1,15}$/.test(trimmed) ? Number(trimmed) : null;
  return searchUserRows(db, { id, email: normalizeEmail(trimmed), phone: normalizePhone(trimmed), contains: trimmed }, USER_SEARCH_RESULTS_MAX);
}
