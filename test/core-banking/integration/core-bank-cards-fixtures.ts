import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bankAccounts, bankCards } from '../../../src/core-banking/store/schema.ts';
import { coreRequest, createTestAppToken, createTestProfile } from '../../support/core-banking.ts';
import { PUBLIC_URL, startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import type { Engine } from '../../../src/platform/database.ts';

export const HARNESS_MASTER_KEY = Buffer.alloc(32, 7); // the master key startHarness gives the app

type CardLinkPurpose = 'show_card_data' | 'show_set_card_pin';

// The bank card endpoints (spec 4) on a real app and database: a card programme merchant, an app token, a profile
// with an approved bank account; bank accounts are written straight into the database.
export interface CardFixture {
  harness: Harness;
  merchant: TestMerchant;
  appToken: string;
  profileId: number;
  bankAccountId: number;
  bankAccount(status?: 'approved' | 'pending'): Promise<number>;
  cardBody(extra?: Record<string, unknown>): Record<string, unknown>;
  issue(payload: Record<string, unknown>, token?: string | null, headers?: Record<string, string>): ReturnType<typeof coreRequest>;
  link(
    cardId: string | number,
    purpose: CardLinkPurpose,
    key?: string,
    token?: string | null,
    headers?: Record<string, string>,
  ): ReturnType<typeof coreRequest>;
  issuedCard(extra?: Record<string, unknown>): Promise<{ id: number; outer_id: string; card_mask: string }>;
  cardRow(id: number): Promise<typeof bankCards.$inferSelect>;
  pagePath(url: string): string;
}

export async function startCardFixture(engine: Engine): Promise<CardFixture> {
  const harness = await startHarness(engine);
  const merchant = await harness.createMerchant('Card programme');
  const appToken = await createTestAppToken(harness.database.db, 'card service');
  const profileId = (await createTestProfile(harness.database.db)).id;
  const bankAccount = async (status: 'approved' | 'pending' = 'approved') => {
    const [row] = await harness.database.db
      .insert(bankAccounts)
      .values({ profileId, token: `ba_${Math.random().toString(36).slice(2)}`, value: 'GB33BUKB20201555555555', currency: 'EUR', status })
      .returning({ id: bankAccounts.id });
    return row!.id;
  };
  const bankAccountId = await bankAccount();
  const fixture: CardFixture = {
    harness,
    merchant,
    appToken,
    profileId,
    bankAccountId,
    bankAccount,
    cardBody: (extra = {}) => ({
      merchant_private_key: merchant.sandboxKey,
      bank_account_id: bankAccountId,
      card_type: 'virtual',
      holder_first_name: 'Ada',
      holder_last_name: 'Lovelace',
      ...extra,
    }),
    // token null: no app-token header
    issue: (payload, token = appToken, headers = {}) =>
      coreRequest(harness.app, { method: 'POST', url: '/api/internal/v1/bank_cards', payload, headers, ...(token === null ? {} : { appToken: token }) }),
    link: (cardId, purpose, key = merchant.sandboxKey, token = appToken, headers = {}) =>
      coreRequest(harness.app, {
        method: 'GET',
        url: `/api/internal/v1/bank_cards/${cardId}/${purpose}?merchant_private_key=${encodeURIComponent(key)}`,
        headers,
        ...(token === null ? {} : { appToken: token }),
      }),
    async issuedCard(extra = {}) {
      const response = await fixture.issue(fixture.cardBody({ bank_account_id: await bankAccount(), ...extra }));
      expect(response.statusCode, response.body).toBe(200);
      return response.json().result;
    },
    cardRow: async (id) => (await harness.database.db.select().from(bankCards).where(eq(bankCards.id, id)))[0]!,
    pagePath(url) {
      expect(url.startsWith(`${PUBLIC_URL}/cards/`)).toBe(true);
      return url.slice(PUBLIC_URL.length);
    },
  };
  return fixture;
}
