import { eq } from 'drizzle-orm';
import type { TransferDirection } from '../domain/core-banking-values.ts';
import type { DbOrTx } from '../../platform/database.ts';
import { bankAccounts, bankTransfers, users } from './schema.ts';

export interface BankTransferRow {
  id: number;
  token: string;
  requestDigest: string;
  profileId: number;
  bankAccountId: number;
  direction: TransferDirection;
  provider: string;
  amountMinor: number;
  currency: string;
  createdAt: Date;
}

const columns = {
  id: bankTransfers.id,
  token: bankTransfers.token,
  requestDigest: bankTransfers.requestDigest,
  profileId: bankTransfers.profileId,
  bankAccountId: bankTransfers.bankAccountId,
  direction: bankTransfers.direction,
  provider: bankTransfers.provider,
  amountMinor: bankTransfers.amountMinor,
  currency: bankTransfers.currency,
  createdAt: bankTransfers.createdAt,
};

export async function findBankTransferByToken(db: DbOrTx, token: string): Promise<BankTransferRow | null> {
  const [row] = await db.select(columns).from(bankTransfers).where(eq(bankTransfers.token, token)).limit(1);
  return row ?? null;
}

export type NewBankTransfer = Omit<BankTransferRow, 'id' | 'createdAt'> & { appTokenId: number };

// Inserts the transfer unless its token is taken: null when it is (by a committed transfer, or by a concurrent
// one that this insert waited for and that committed). The caller then reads the holder of the token.
export async function insertBankTransfer(db: DbOrTx, transfer: NewBankTransfer): Promise<BankTransferRow | null> {
  const [row] = await db.insert(bankTransfers).values(transfer).onConflictDoNothing({ target: bankTransfers.token }).returning(columns);
  return row ?? null;
}

export interface TransferParties {
  profileActive: boolean;
  bankAccount: { profileId: number; currency: string; status: string } | null;
}

// What a transfer needs to know of its profile and bank account; null when the profile does not exist.
export async function findTransferParties(db: DbOrTx, profileId: number, bankAccountId: number): Promise<TransferParties | null> {
  const [profile] = await db.select({ status: users.status }).from(users).where(eq(users.id, profileId)).limit(1);
  if (!profile) return null;
  const [bankAccount] = await db
    .select({ profileId: bankAccounts.profileId, currency: bankAccounts.currency, status: bankAccounts.status })
    .from(bankAccounts)
    .where(eq(bankAccounts.id, bankAccountId))
    .limit(1);
  return { profileActive: profile.status === 'active', bankAccount: bankAccount ?? null };
}
