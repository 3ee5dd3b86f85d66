import { and, asc, eq, inArray, isNull, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { BankAccountProvider, BankAccountStatus } from '../domain/core-banking-values.ts';
import type { BankAccountRow } from './bank-accounts-repo.ts';
import type { DbOrTx } from '../../platform/database.ts';
import { bankAccounts, bankCards, userMemberships, users } from './schema.ts';
import { walletBalances } from '../../ledger/store/schema.ts';

// GET /api/v1/bank_accounts/list: one profile's records under the filters of spec 4, and what `with_cards` and
// `with_wallet` add to them.

export interface BankAccountFilter {
  profileId: number;
  provider?: BankAccountProvider | undefined;
  accountNumberCompass?: string | undefined;
  ownersCardAccounts?: boolean | undefined;
  cardAccounts?: boolean | undefined;
  id?: number | undefined;
  idOrToken?: string | undefined;
  value?: string | undefined;
  currency?: string | undefined;
  status?: BankAccountStatus | undefined;
  verified?: boolean | undefined;
  outerId?: string | undefined;
}

const ID_TEXT = /^[1-9][0-9]{0,14}$/;
const HIDDEN_CARD_STATUSES = ['rejected', 'closed'] as const;

// drizzle's or() answers SQL | undefined (undefined for no operands); and() skips an undefined condition.
function conditionsOf(filter: BankAccountFilter): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [eq(bankAccounts.profileId, filter.profileId)];
  // A closed (deleted) record is shown only to who asks for closed ones.
  conditions.push(filter.status === undefined ? ne(bankAccounts.status, 'closed') : eq(bankAccounts.status, filter.status));
  if (filter.provider !== undefined) conditions.push(eq(bankAccounts.provider, filter.provider));
  if (filter.cardAccounts === true || filter.ownersCardAccounts === true) conditions.push(eq(bankAccounts.provider, 'card'));
  if (filter.ownersCardAccounts === true) conditions.push(heldByOwner(filter.profileId));
  if (filter.accountNumberCompass !== undefined) {
    conditions.push(sql`${bankAccounts.details} ->> 'account_number_compass' = ${filter.accountNumberCompass}`);
  }
  if (filter.id !== undefined) conditions.push(eq(bankAccounts.id, filter.id));
  if (filter.idOrToken !== undefined) {
    const byToken = eq(bankAccounts.token, filter.idOrToken);
    conditions.push(ID_TEXT.test(filter.idOrToken) ? or(eq(bankAccounts.id, Number(filter.idOrToken)), byToken) : byToken);
  }
  if (filter.value !== undefined) conditions.push(eq(bankAccounts.value, filter.value));
  if (filter.currency !== undefined) conditions.push(eq(bankAccounts.currency, filter.currency));
  if (filter.verified !== undefined) conditions.push(eq(bankAccounts.verified, filter.verified));
  if (filter.outerId !== undefined) conditions.push(eq(bankAccounts.outerId, filter.outerId));
  return conditions;
}

// A card account held by the profile's owner: no other holder named on it, or the holder named is the owner
// ("name surname", compared without case). The owner of a person's profile is the person; of a business
// account, its members with role owner.
function heldByOwner(profileId: number): SQL | undefined {
  const fullName = sql`lower(btrim(${users.name} || ' ' || ${users.surname}))`;
  const personName = sql`select ${fullName} from ${users} where ${users.id} = ${profileId} and ${users.kind} = 'person'`;
  const ownerNames = sql`select ${fullName} from ${userMemberships} join ${users} on ${users.id} = ${userMemberships.memberId}
    where ${userMemberships.businessId} = ${profileId} and ${userMemberships.role} = 'owner'`;
  return or(
    isNull(bankAccounts.accountHolder),
    sql`btrim(${bankAccounts.accountHolder}) = ''`,
    sql`lower(btrim(${bankAccounts.accountHolder})) in (${personName} union ${ownerNames})`,
  );
}

export async function listBankAccounts(db: DbOrTx, filter: BankAccountFilter, page: { limit: number; offset: number }): Promise<BankAccountRow[]> {
  return db
    .select()
    .from(bankAccounts)
    .where(and(...conditionsOf(filter)))
    .orderBy(asc(bankAccounts.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function anyBankAccount(db: DbOrTx, filter: BankAccountFilter): Promise<boolean> {
  const rows = await db
    .select({ id: bankAccounts.id })
    .from(bankAccounts)
    .where(and(...conditionsOf(filter)))
    .limit(1);
  return rows.length > 0;
}

export interface AccountCard {
  id: number;
  panMask: string | null;
}

// The live cards (not rejected or closed) issued on each account, oldest first.
export async function cardsOfBankAccounts(db: DbOrTx, bankAccountIds: readonly number[]): Promise<Map<number, AccountCard[]>> {
  const cards = new Map<number, AccountCard[]>();
  if (bankAccountIds.length === 0) return cards;
  const rows = await db
    .select({ id: bankCards.id, bankAccountId: bankCards.bankAccountId, panMask: bankCards.panMask })
    .from(bankCards)
    .where(and(inArray(bankCards.bankAccountId, [...bankAccountIds]), notInArray(bankCards.status, [...HIDDEN_CARD_STATUSES])))
    .orderBy(asc(bankCards.id));
  for (const row of rows) {
    const list = cards.get(row.bankAccountId) ?? [];
    list.push({ id: row.id, panMask: row.panMask });
    cards.set(row.bankAccountId, list);
  }
  return cards;
}

// The profile's wallet balance (minor units) in each currency that has one.
export async function walletBalancesMinor(db: DbOrTx, profileId: number, currencies: readonly string[]): Promise<Map<string, number>> {
  const balances = new Map<string, number>();
  if (currencies.length === 0) return balances;
  const rows = await db
    .select({ currency: walletBalances.currency, balanceMinor: walletBalances.balanceMinor })
    .from(walletBalances)
    .where(and(eq(walletBalances.profileId, profileId), eq(walletBalances.account, 'wallet'), inArray(walletBalances.currency, [...currencies])));
  for (const row of rows) balances.set(row.currency, row.balanceMinor);
  return balances;
}
