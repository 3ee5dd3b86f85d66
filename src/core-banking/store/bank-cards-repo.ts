import { and, count, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/database.ts';
import { checkCardDelivery } from './json-columns.ts';
import { bankAccounts, bankCards, users } from './schema.ts';

export type BankCardRow = typeof bankCards.$inferSelect;
export type NewBankCard = typeof bankCards.$inferInsert;

export interface CardBankAccount {
  id: number;
  profileId: number;
  status: string;
  profileStatus: 'active' | 'disabled';
}

export async function findCardBankAccount(db: DbOrTx, bankAccountId: number): Promise<CardBankAccount | null> {
  const [row] = await db
    .select({ id: bankAccounts.id, profileId: bankAccounts.profileId, status: bankAccounts.status, profileStatus: users.status })
    .from(bankAccounts)
    .innerJoin(users, eq(users.id, bankAccounts.profileId))
    .where(eq(bankAccounts.id, bankAccountId))
    .limit(1);
  return row ?? null;
}

export async function countActiveCards(db: DbOrTx, bankAccountId: number): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(bankCards)
    .where(and(eq(bankCards.bankAccountId, bankAccountId), eq(bankCards.status, 'active')));
  return Number(row?.total ?? 0);
}

// An issued card, counted against the bank account's limit under a lock on the account: two requests racing for
// the last place cannot both take it. The loser is recorded closed (the issuer already made it) and reported.
export async function insertIssuedCard(
  db: Db,
  card: NewBankCard,
  activeMax: number,
  closedReason: string,
): Promise<{ card: BankCardRow; withinLimit: boolean }> {
  checkCardDelivery(card.delivery);
  return db.transaction(async (tx) => {
    await tx.select({ id: bankAccounts.id }).from(bankAccounts).where(eq(bankAccounts.id, card.bankAccountId)).for('update');
    const withinLimit = (await countActiveCards(tx, card.bankAccountId)) < activeMax;
    const values: NewBankCard = withinLimit ? { ...card, status: 'active' } : { ...card, status: 'closed', rejectionReason: closedReason };
    const [row] = await tx.insert(bankCards).values(values).returning();
    if (!row) throw new Error('bank card insert returned nothing');
    return { card: row, withinLimit };
  });
}

export async function insertRejectedCard(db: DbOrTx, card: NewBankCard): Promise<BankCardRow> {
  checkCardDelivery(card.delivery);
  const [row] = await db
    .insert(bankCards)
    .values({ ...card, status: 'rejected' })
    .returning();
  if (!row) throw new Error('bank card insert returned nothing');
  return row;
}

// A card of one merchant in one environment, by internal id or by the issuer's id; another merchant's card is not found.
export async function findMerchantCard(
  db: DbOrTx,
  reference: { id: number } | { outerId: string },
  owner: { merchantId: number; environment: 'sandbox' | 'production' },
): Promise<BankCardRow | null> {
  const byReference = 'id' in reference ? eq(bankCards.id, reference.id) : eq(bankCards.outerId, reference.outerId);
  const rows = await db
    .select()
    .from(bankCards)
    .where(and(byReference, eq(bankCards.merchantId, owner.merchantId), eq(bankCards.environment, owner.environment)))
    .limit(2);
  return rows.length === 1 ? (rows[0] ?? null) : null; // an outer id two issuers share is ambiguous: not found
}

export async function findCard(db: DbOrTx, cardId: number): Promise<BankCardRow | null> {
  const [row] = await db.select().from(bankCards).where(eq(bankCards.id, cardId)).limit(1);
  return row ?? null;
}

// The one live hosted-page link of a card: a new link replaces (voids) the previous one.
export async function setPageNonce(db: DbOrTx, cardId: number, nonce: string): Promise<void> {
  await db.update(bankCards).set({ pageNonce: nonce, updatedAt: new Date() }).where(eq(bankCards.id, cardId));
}

// Uses a link: true for exactly one caller while the link is live.
export async function consumePageNonce(db: DbOrTx, cardId: number, nonce: string): Promise<boolean> {
  const used = await db
    .update(bankCards)
    .set({ pageNonce: null, updatedAt: new Date() })
    .where(and(eq(bankCards.id, cardId), eq(bankCards.pageNonce, nonce), eq(bankCards.status, 'active')))
    .returning({ id: bankCards.id });
  return used.length === 1;
}

export async function recordPinSet(db: DbOrTx, cardId: number, at: Date): Promise<void> {
  await db.update(bankCards).set({ pinSetAt: at, updatedAt: at }).where(eq(bankCards.id, cardId));
}
