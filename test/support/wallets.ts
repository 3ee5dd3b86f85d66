import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/platform/database.ts';
import { bankAccounts } from '../../src/core-banking/store/schema.ts';
import { coreRequest } from './core-banking.ts';

// Wallet fixtures for the core banking transfer and money charge tests: bank accounts written straight into the
// database (their own API is tested elsewhere), money moved through the real transfers endpoint, and the ledger
// read back the way an auditor would.

export async function insertBankAccount(db: Db, profileId: number, currency: string, status: 'approved' | 'pending' | 'declined' | 'closed' = 'approved') {
  const [row] = await db
    .insert(bankAccounts)
    .values({ profileId, currency, status, token: randomBytes(12).toString('hex'), value: `GB${randomBytes(8).toString('hex')}`, provider: 'iban' })
    .returning({ id: bankAccounts.id });
  if (!row) throw new Error('bank account insert returned nothing');
  return row.id;
}

export interface TransferFields {
  profile_id: number;
  amount: number;
  currency: string;
  direction: 'credit' | 'debit';
  provider: string;
  token: string;
  bank_account_id: number;
}

export const newTransferToken = () => `op-${randomBytes(9).toString('base64url')}`;

export function postTransfer(app: FastifyInstance, appToken: string | undefined, payload: unknown, headers: Record<string, string> = {}) {
  return coreRequest(app, {
    method: 'POST',
    url: '/api/v2/banking/transfers',
    ...(appToken === undefined ? {} : { appToken }),
    payload: payload as object,
    headers,
  });
}

// Credits a wallet through the transfers endpoint (so the ledger check finds the transfer behind the posting).
export async function fundWallet(app: FastifyInstance, appToken: string, profileId: number, bankAccountId: number, amount: number, currency: string) {
  const response = await postTransfer(app, appToken, {
    profile_id: profileId,
    amount,
    currency,
    direction: 'credit',
    provider: 'sepa_partner',
    token: newTransferToken(),
    bank_account_id: bankAccountId,
  });
  if (response.statusCode !== 200) throw new Error(`funding failed: ${response.body}`);
}

const rowsOf = async <T>(db: Db, query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

// The wallet's running balance and the sum of its entries, both in minor units.
export async function walletAgainstEntries(db: Db, profileId: number, currency: string) {
  const [balance] = await rowsOf<{ value: string }>(
    db,
    sql`select balance_minor::text as value from wallet_balances where profile_id = ${profileId} and currency = ${currency} and account = 'wallet'`,
  );
  const [entries] = await rowsOf<{ value: string | null }>(
    db,
    sql`select sum(e.amount_minor)::text as value from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
        where t.profile_id = ${profileId} and t.currency = ${currency} and e.account = 'wallet'`,
  );
  return { balanceMinor: Number(balance?.value ?? 0), entriesMinor: Number(entries?.value ?? 0) };
}

export async function countRows(db: Db, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await rowsOf<{ count: string }>(db, query);
  return Number(row?.count ?? 0);
}

export async function ledgerCheck(app: FastifyInstance, adminKey: string) {
  const response = await app.inject({ method: 'GET', url: '/api/admin/v1/ledger/check', headers: { authorization: `Bearer ${adminKey}` } });
  return response.json() as { success: boolean; violations: { rule: string; message: string; ref: Record<string, string | number> }[] };
}
