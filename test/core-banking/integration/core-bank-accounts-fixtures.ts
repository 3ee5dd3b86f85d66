import type { LightMyRequestResponse } from 'fastify';
import { bankAccounts } from '../../../src/core-banking/store/schema.ts';
import { coreRequest } from '../../support/core-banking.ts';
import type { Harness } from '../../support/harness.ts';

// Calls of the bank account endpoints through the real app, and records written straight into the database when
// a test needs many or needs a status only an operator could give.

export const VALID_IBAN = 'GB82WEST12345698765432';

export type Query = Record<string, string | number | boolean>;

const search = (query: Query) => {
  const entries = Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]);
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
};

export function newBankAccount(harness: Harness, session: string, body: Record<string, unknown>, query: Query = {}): Promise<LightMyRequestResponse> {
  return coreRequest(harness.app, { method: 'POST', url: `/api/v1/bank_accounts/new${search(query)}`, session, payload: body });
}

export function deleteBankAccount(harness: Harness, session: string, body: Record<string, unknown>, query: Query = {}): Promise<LightMyRequestResponse> {
  return coreRequest(harness.app, { method: 'POST', url: `/api/v1/bank_accounts/delete${search(query)}`, session, payload: body });
}

export function listBankAccounts(harness: Harness, session: string, query: Query = {}): Promise<LightMyRequestResponse> {
  return coreRequest(harness.app, { method: 'GET', url: `/api/v1/bank_accounts/list${search(query)}`, session });
}

export function reviewBankAccount(harness: Harness, id: number, action: string, body?: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return harness.app.inject({
    method: 'POST',
    url: `/api/admin/v1/bank-accounts/${id}/${action}`,
    headers: { authorization: `Bearer ${harness.adminKey}` },
    ...(body === undefined ? {} : { payload: body }),
  });
}

// Creates through the API and returns the new id (the test fails loudly when creation does).
export async function createdId(harness: Harness, session: string, body: Record<string, unknown>, query: Query = {}): Promise<number> {
  const response = await newBankAccount(harness, session, body, query);
  if (response.statusCode !== 200) throw new Error(`bank account create failed: ${response.body}`);
  return response.json().id as number;
}

export async function insertBankAccounts(harness: Harness, profileId: number, count: number, fields: Partial<typeof bankAccounts.$inferInsert> = {}) {
  const rows = Array.from({ length: count }, (_, index) => ({
    profileId,
    token: `fixture${profileId}x${index}x${Math.random().toString(16).slice(2)}`,
    value: `ACC-${index}`,
    currency: 'EUR',
    ...fields,
  }));
  return harness.database.db.insert(bankAccounts).values(rows).returning({ id: bankAccounts.id });
}
