import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { HEADER, addSettlementGateway, adminHeaders, bookedAt, importFile, insertSettledPayments, majorAmount } from './reconciliation-fixtures.ts';

const engines = await testEngines();
const FROM = '2026-11-10T00:00:00.000Z';
const PAYMENTS = 100_000;
const IN_FILE = 99_500; // psp1 … psp99500; the last 500 payments are missing from the file
const DUPLICATES = 300; // psp10 … psp309 a second time
const UNKNOWN = 200; // tokens Payrail never saw
const PLANTED_EACH = 100; // i % 1000 is 1 (amount), 2 (currency) or 3 (status) 100 times among 1 … 99,500
const FILE_FEE_MINOR = 20;
const COMMISSION_MINOR = 25;

// 100,000 lines with every kind of disagreement planted at known places: every 1000th payment (from 1) with its
// amount one cent off, from 2 in USD, from 3 refused; then duplicates; then unknown tokens dated late in the period
// (so the 500 payments the file lacks fall inside it).
function plantedFile(): string {
  const lines: string[] = [HEADER];
  const line = (token: string, amount: string, currency: string, state: string, date: string) => `${token},${amount},${currency},0.20,${state},${date}\n`;
  for (let i = 1; i <= IN_FILE; i += 1) {
    const kind = i % 1000;
    lines.push(line(`psp${i}`, majorAmount(i, kind === 1 ? 1 : 0), kind === 2 ? 'USD' : 'EUR', kind === 3 ? 'REFUSED' : 'SETTLED', bookedAt(FROM, i)));
  }
  for (let i = 10; i < 10 + DUPLICATES; i += 1) lines.push(line(`psp${i}`, majorAmount(i), 'EUR', 'SETTLED', bookedAt(FROM, i)));
  for (let i = 1; i <= UNKNOWN; i += 1) lines.push(line(`unknown-${i}`, '5.00', 'EUR', 'SETTLED', '2026-11-11T23:00:00Z'));
  return lines.join('');
}

describe.each(engines)('a 100,000-line settlement file with every mismatch planted on %s', (engine) => {
  let harness: Harness;
  let gatewayId: number;

  beforeAll(async () => {
    harness = await startHarness(engine);
    const merchant = await harness.createMerchant('Busy merchant');
    gatewayId = await addSettlementGateway(harness, merchant.id);
    await insertSettledPayments(harness.database, {
      merchantId: merchant.id,
      gatewayId,
      count: PAYMENTS,
      tokenPrefix: 'psp',
      finalizedFrom: FROM,
      commissionMinor: COMMISSION_MINOR,
    });
    // Final payments outside the file's period: never missing from it.
    await insertSettledPayments(harness.database, { merchantId: merchant.id, gatewayId, count: 50, tokenPrefix: 'old', finalizedFrom: '2026-10-01T00:00:00Z' });
  }, 180_000);
  afterAll(async () => harness?.close());

  it('counts each outcome exactly and sets the fees against the commissions', async () => {
    const response = await importFile(harness, gatewayId, plantedFile());
    expect(response.statusCode, response.body).toBe(201);
    const { reconciliation } = response.json();
    expect(reconciliation.line_count).toBe(IN_FILE + DUPLICATES + UNKNOWN);
    expect(reconciliation.summary.counts).toEqual({
      matched: IN_FILE - 3 * PLANTED_EACH,
      missing_in_payrail: UNKNOWN,
      missing_in_file: PAYMENTS - IN_FILE,
      amount_mismatch: PLANTED_EACH,
      currency_mismatch: PLANTED_EACH,
      status_mismatch: PLANTED_EACH,
      duplicate_in_file: DUPLICATES,
    });
    expect(reconciliation.summary.fees).toEqual([
      {
        currency: 'EUR',
        file_fee_minor: (IN_FILE - PLANTED_EACH + UNKNOWN) * FILE_FEE_MINOR,
        matched_file_fee_minor: (IN_FILE - PLANTED_EACH) * FILE_FEE_MINOR,
        payrail_commission_minor: IN_FILE * COMMISSION_MINOR, // every payment a line found, the USD lines' too
        difference_minor: IN_FILE * COMMISSION_MINOR - (IN_FILE - PLANTED_EACH) * FILE_FEE_MINOR,
      },
      {
        currency: 'USD',
        file_fee_minor: PLANTED_EACH * FILE_FEE_MINOR,
        matched_file_fee_minor: PLANTED_EACH * FILE_FEE_MINOR,
        payrail_commission_minor: 0,
        difference_minor: -PLANTED_EACH * FILE_FEE_MINOR,
      },
    ]);
    const report = await harness.app.inject({
      method: 'GET',
      url: `/api/admin/v1/reconciliations/${reconciliation.token}/report.csv`,
      headers: adminHeaders(harness),
    });
    expect(report.body.trimEnd().split('\r\n')).toHaveLength(1 + IN_FILE + DUPLICATES + UNKNOWN + PAYMENTS - IN_FILE);
  }, 240_000);
});
