import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { approvedPayment, disputeForm, postDispute } from './disputes-fixtures.ts';

const engines = await testEngines();

describe.each(engines)('dispute list on %s', (engine) => {
  let harness: Harness;
  let temporaryRoot: string;
  let merchant: TestMerchant;

  beforeAll(async () => {
    temporaryRoot = await mkdtemp(join(tmpdir(), 'payrail-dispute-list-'));
    harness = await startHarness(engine, { PAYRAIL_DISPUTE_DOCUMENTS_DIR: join(temporaryRoot, 'documents') });
    merchant = await harness.createMerchant('Listing merchant');
  });
  afterAll(async () => {
    await harness?.close();
    if (temporaryRoot) await rm(temporaryRoot, { recursive: true, force: true });
  });

  it('walks every dispute newest first with a cursor, filters by status, and shows no one else', async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey, 10_000);
    const tokens: string[] = [];
    for (let index = 0; index < 7; index += 1) {
      const response = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 100 + index));
      tokens.push(response.json().dispute.token);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '?perPage=3' : `?perPage=3&cursor=${cursor}`;
      const page = await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: `/api/v1/disputes${query}` });
      expect(page.statusCode).toBe(200);
      const body = page.json();
      expect(body).toMatchObject({ success: true, result: 0, perPage: 3 });
      expect(body.disputes.length).toBeLessThanOrEqual(3);
      seen.push(...body.disputes.map((dispute: { token: string }) => dispute.token));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...tokens].reverse());

    const open = await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: '/api/v1/disputes?status=open&perPage=100' });
    expect(open.json().disputes).toHaveLength(7);
    const won = await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: '/api/v1/disputes?status=won' });
    expect(won.json().disputes).toEqual([]);

    const stranger = await harness.createMerchant('Stranger');
    for (const key of [stranger.sandboxKey, merchant.productionKey]) {
      const theirs = await harness.merchantRequest(key, { method: 'GET', url: '/api/v1/disputes' });
      expect(theirs.json()).toMatchObject({ disputes: [], nextCursor: null });
    }
  });

  it.each([
    ['perPage=101', 'perPage'],
    ['perPage=0', 'perPage'],
    ['status=closed', 'status'],
    ['cursor=not-a-cursor', 'cursor'],
    ['page=2', 'page'],
  ])('refuses ?%s with 422', async (query, field) => {
    const response = await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: `/api/v1/disputes?${query}` });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[0].field).toBe(field);
  });
});
