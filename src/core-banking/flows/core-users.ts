import { ISO_3166_ALPHA2 } from '../../platform/lib/countries.ts';
import { currencyExponent, type CurrencyTable } from '../../platform/lib/currencies.ts';
import type { KycStatus, WalletType } from '../domain/core-banking-values.ts';
import { normalizeEmail, normalizePhone } from '../domain/profile-contacts.ts';
import { ApiError, type ErrorItem } from '../../platform/lib/errors.ts';
import { hashPassword } from '../../platform/lib/password-hash.ts';
import type { Db } from '../../platform/database.ts';
import { revokeUserSessions } from '../store/sessions-repo.ts';
import { findContactOwners, findUser, insertPerson, listUsers, updateUser, type UserChanges, type UserRow } from '../store/user-accounts-repo.ts';

export type { UserRow };

export interface NewPersonInput {
  email: string;
  phone: string;
  password: string; // length checked by the request schema (lib/password-hash.ts bounds)
  name: string;
  surname: string;
  companyName: string | null;
  walletType: WalletType;
  currentCurrency: string;
  country: string | null;
}

export interface UserChangesInput {
  status?: UserRow['status'];
  kycStatus?: KycStatus;
  walletPinEnabled?: boolean;
}

// Operators create people (issue 9: POST /api/admin/v1/users, `payrail user create`): e-mail and phone in their
// normal form and unique, a known currency and country, the password kept only as a scrypt hash.
export async function createPerson(db: Db, currencies: CurrencyTable, input: NewPersonInput, passwordScryptLogN: number): Promise<UserRow> {
  const errors: ErrorItem[] = [];
  const email = normalizeEmail(input.email);
  if (email === null) errors.push({ code: 'invalid_field', field: 'email', message: 'is not an e-mail address' });
  const phone = normalizePhone(input.phone);
  if (phone === null) errors.push({ code: 'invalid_field', field: 'phone', message: 'must be + and 6 to 20 digits' });
  checkCurrencyAndCountry(currencies, input, errors);
  if (errors.length > 0 || email === null || phone === null) throw new ApiError('invalid_field', 422, 'the profile breaks the rules', errors);

  const taken = await findContactOwners(db, email, phone);
  if (taken.email || taken.phone) throw duplicate(taken);
  const person = await insertPerson(db, {
    email,
    phone,
    name: input.name,
    surname: input.surname,
    companyName: input.companyName,
    walletType: input.walletType,
    currentCurrency: input.currentCurrency,
    country: input.country,
    passwordHash: await hashPassword(input.password, passwordScryptLogN),
  });
  if (person === null) throw duplicate({ email: true, phone: true }); // taken between the check and the insert
  return person;
}

export function checkCurrencyAndCountry(currencies: CurrencyTable, input: { currentCurrency: string; country: string | null }, errors: ErrorItem[]): void {
  if (currencyExponent(currencies, input.currentCurrency) === undefined) {
    errors.push({ code: 'invalid_field', field: 'current_currency', message: 'is not a known currency' });
  }
  if (input.country !== null && !ISO_3166_ALPHA2.has(input.country)) {
    errors.push({ code: 'invalid_field', field: 'country', message: 'is not an ISO 3166-1 alpha-2 country code' });
  }
}

function duplicate(taken: { email: boolean; phone: boolean }): ApiError {
  const items: ErrorItem[] = [];
  if (taken.email) items.push({ code: 'already_exists', field: 'email', message: 'another profile has this e-mail address' });
  if (taken.phone) items.push({ code: 'already_exists', field: 'phone', message: 'another profile has this phone number' });
  return new ApiError('already_exists', 409, 'another profile has this e-mail address or phone number', items);
}

export async function getUser(db: Db, id: number): Promise<UserRow> {
  const user = await findUser(db, id);
  if (user === null) throw userNotFound(id);
  return user;
}

export async function listUsersPage(db: Db, page: number, perPage: number, kind: UserRow['kind'] | null) {
  return listUsers(db, perPage, (page - 1) * perPage, kind);
}

// Disabling a profile revokes its sessions in the same transaction, for good: enabling it again brings none back,
// the person signs in anew.
export async function changeUser(db: Db, id: number, input: UserChangesInput): Promise<UserRow> {
  const changes: UserChanges = {};
  if (input.status !== undefined) changes.status = input.status;
  if (input.kycStatus !== undefined) changes.kycStatus = input.kycStatus;
  if (input.walletPinEnabled !== undefined) changes.walletPinEnabled = input.walletPinEnabled;
  if (Object.keys(changes).length === 0) return getUser(db, id);
  const user = await db.transaction(async (tx) => {
    const updated = await updateUser(tx, id, changes);
    if (updated !== null && changes.status === 'disabled') await revokeUserSessions(tx, id);
    return updated;
  });
  if (user === null) throw userNotFound(id);
  return user;
}

const userNotFound = (id: number) => new ApiError('not_found', 404, `profile ${id} not found`);
