import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import type { MembershipRole } from '../domain/core-banking-values.ts';
import { ApiError, type ErrorItem } from '../../platform/lib/errors.ts';
import { deleteMember, findBusinessKind, insertBusiness, insertMember, membersOf, personIdsAmong, type Member } from '../store/business-accounts-repo.ts';
import type { Db } from '../../platform/database.ts';
import { findUser } from '../store/user-accounts-repo.ts';
import { checkCurrencyAndCountry, type UserRow } from './core-users.ts';

export interface NewBusinessInput {
  name: string;
  companyName: string;
  currentCurrency: string;
  country: string | null;
  members: { userId: number; role: MembershipRole }[];
}

export interface BusinessAccount {
  business: UserRow;
  members: Member[];
}

// A business (segregated) account: a profile without a login of its own, on which its members act.
export async function createBusiness(db: Db, currencies: CurrencyTable, input: NewBusinessInput): Promise<BusinessAccount> {
  const errors: ErrorItem[] = [];
  checkCurrencyAndCountry(currencies, input, errors);
  const ids = input.members.map((member) => member.userId);
  const people = await personIdsAmong(db, ids);
  input.members.forEach((member, index) => {
    if (!people.has(member.userId)) errors.push({ code: 'invalid_field', field: `members.${index}.user_id`, message: 'is not the id of a person' });
    else if (ids.indexOf(member.userId) !== index) errors.push({ code: 'invalid_field', field: `members.${index}.user_id`, message: 'is listed twice' });
  });
  if (errors.length > 0) throw new ApiError('invalid_field', 422, 'the business account breaks the rules', errors);
  const businessId = await db.transaction((tx) =>
    insertBusiness(tx, { name: input.name, companyName: input.companyName, currentCurrency: input.currentCurrency, country: input.country }, input.members),
  );
  return getBusiness(db, businessId);
}

export async function getBusiness(db: Db, businessId: number): Promise<BusinessAccount> {
  const business = await findUser(db, businessId);
  if (business === null || business.kind !== 'business') throw businessNotFound(businessId);
  return { business, members: await membersOf(db, businessId) };
}

export async function addMember(db: Db, businessId: number, userId: number, role: MembershipRole): Promise<BusinessAccount> {
  await requireBusiness(db, businessId);
  if (!(await personIdsAmong(db, [userId])).has(userId)) {
    throw new ApiError('invalid_field', 422, 'user_id is not the id of a person', [
      { code: 'invalid_field', field: 'user_id', message: 'is not the id of a person' },
    ]);
  }
  if (!(await insertMember(db, businessId, userId, role))) {
    throw new ApiError('already_exists', 409, `profile ${userId} is a member of business account ${businessId} already`);
  }
  return getBusiness(db, businessId);
}

export async function removeMember(db: Db, businessId: number, userId: number): Promise<BusinessAccount> {
  await requireBusiness(db, businessId);
  if (!(await deleteMember(db, businessId, userId)))
    throw new ApiError('not_found', 404, `profile ${userId} is not a member of business account ${businessId}`);
  return getBusiness(db, businessId);
}

async function requireBusiness(db: Db, businessId: number): Promise<void> {
  if ((await findBusinessKind(db, businessId)) !== 'business') throw businessNotFound(businessId);
}

const businessNotFound = (id: number) => new ApiError('not_found', 404, `business account ${id} not found`);
