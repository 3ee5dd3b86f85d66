import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRowsOf } from '../../support/audit.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { HEADER, MAPPING, addSettlementGateway, adminHeaders, bookedAt, importFile, insertSettledPayments, majorAmount } from './reconciliation-fixtures.ts';

const engines = await testEngines();
const FROM = '2026-11-10T08:00:00.000Z';

// A small file with one line of every kind, so each outcome can be named.
function smallFile(): string {
  const line = (token: string, amount: string, currency: string, fee: string, state: string, date: string) =>
    `${token},${amount},${currency},${fee},${state},${date}\n`;
  return (
    HEADER +
    line('psp1', majorAmount(1), 'EUR', '0.20', 'SETTLED', bookedAt(FROM, 1)) + // matched
    line('psp2', majorAmount(2, 5), 'EUR', '0.20', 'SETTLED', bookedAt(FROM, 2)) + // amount_mismatch
    line('psp3', majorAmount(3), 'USD', '0.20', 'SETTLED', bookedAt(FROM, 3)) + // currency_mismatch
    line('psp4', majorAmount(4), 'EUR', '0.20', 'refused', bookedAt(FROM, 4)) + // status_mismatch (words compared without case)
    line('psp1', majorAmount(1), 'EUR', '0.20', 'SETTLED', bookedAt(FROM, 1)) + // duplicate_in_file
    line('"=HYPERLINK(""http://evil.example"")"', '1.00', 'EUR', '0.10', 'SETTLED', bookedAt(FROM, 6)) + // missing_in_payrail
    line('psp6', majorAmount(6), 'EUR', '', 'SETTLED', bookedAt(FROM, 9)) // matched, no fee; psp5 is missing_in_file
  );
}

describe.each(engines)('settlement reconciliation through the admin API on %s', (engine) => {
  let harness: Harness;
  let gatewayId: number;
  let otherGatewayId: number;

  beforeAll(async () => {
    harness = await startHarness(engine);
    const merchant = await harness.createMerchant('Reconciled merchant');
    gatewayId = await addSettlementGateway(harness, merchant.id);
    await insertSettledPayments(harness.database, {
      merchantId: merchant.id,
      gatewayId,
      count: 6,
      tokenPrefix: 'psp',
      finalizedFrom: FROM,
      commissionMinor: 30,
    });
    // Another merchant's gateway holds the same provider tokens: its payments never answer for this gateway's lines.
    const other = await harness.createMerchant('Other merchant');
    otherGatewayId = await addSettlementGateway(harness, other.id);
    await insertSettledPayments(harness.database, { merchantId: other.id, gatewayId: otherGatewayId, count: 10, tokenPrefix: 'psp', finalizedFrom: FROM });
  });
  afterAll(async () => harness?.close());

  const get = (url: string) => harness.app.inject({ method: 'GET', url, headers: adminHeaders(harness) });

  it('saves the mapping with the gateway and refuses one that maps a column twice or names an unknown field', async () => {
    const shown = await get(`/api/admin/v1/gateways/${gatewayId}/settlement-columns`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json().gateway.settlement_columns).toEqual(MAPPING);
    const put = (columns: unknown) =>
      harness.app.inject({
        method: 'PUT',
        url: `/api/admin/v1/gateways/${gatewayId}/settlement-columns`,
        headers: adminHeaders(harness),
        payload: { columns },
      });
    expect((await put({ ...MAPPING, fee: 'gross' })).statusCode).toBe(422);
    expect((await put({ ...MAPPING, colour: 'x' })).statusCode).toBe(422);
    expect((await put({ ...MAPPING, amountFormat: 'cents' })).statusCode).toBe(422);
    expect((await get('/api/admin/v1/gateways/999999/settlement-columns')).statusCode).toBe(404);
    expect((await harness.app.inject({ method: 'GET', url: `/api/admin/v1/gateways/${gatewayId}/settlement-columns` })).statusCode).toBe(401);
    const changes = await auditRowsOf(harness.database, { subjectType: 'gateway', subjectId: gatewayId });
    expect(changes.some((row) => row.after !== null && 'settlement_columns' in row.after)).toBe(true);
  });

  it('reports every outcome of a file, the fees against the commissions, and answers the same file again with the same reconciliation', async () => {
    const first = await importFile(harness, gatewayId, smallFile(), 'nov-10.csv');
    expect(first.statusCode, first.body).toBe(201);
    const reconciliation = first.json().reconciliation;
    expect(reconciliation).toMatchObject({ status: 'completed', line_count: 7, file_name: 'nov-10.csv', created_by: 'admin-key', gateway_id: gatewayId });
    expect(reconciliation.period_from).toBe(bookedAt(FROM, 1));
    expect(reconciliation.period_to).toBe(bookedAt(FROM, 9));
    expect(reconciliation.summary.counts).toEqual({
      matched: 2,
      missing_in_payrail: 1,
      missing_in_file: 1,
      amount_mismatch: 1,
      currency_mismatch: 1,
      status_mismatch: 1,
      duplicate_in_file: 1,
    });
    // EUR: fees of every line but the duplicate (20 × 3 + 10; psp6 has none), of the lines that found a payment (20 × 3), and the
    // commissions of psp1, psp2, psp4, psp6 and psp3 (whose line is in USD): 5 × 30 in EUR.
    expect(reconciliation.summary.fees).toEqual([
      { currency: 'EUR', file_fee_minor: 70, matched_file_fee_minor: 60, payrail_commission_minor: 150, difference_minor: 90 },
      { currency: 'USD', file_fee_minor: 20, matched_file_fee_minor: 20, payrail_commission_minor: 0, difference_minor: -20 },
    ]);
    const again = await importFile(harness, gatewayId, smallFile(), 'renamed.csv');
    expect(again.statusCode).toBe(200);
    expect(again.json().reconciliation.token).toBe(reconciliation.token);
    const listed = await get(`/api/admin/v1/reconciliations?gatewayId=${gatewayId}`);
    expect(listed.json().reconciliations.map((row: { token: string }) => row.token)).toEqual([reconciliation.token]);
    const audit = await auditRowsOf(harness.database, { subjectType: 'gateway', subjectId: gatewayId, action: 'reconciliation.import' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'admin-key', after: { reconciliation: reconciliation.token, lines: 7 } });
  });

  it('lists the items by outcome and page, and streams the report as neutralised CSV', async () => {
    const token = (await importFile(harness, gatewayId, smallFile())).json().reconciliation.token;
    const page1 = await get(`/api/admin/v1/reconciliations/${token}/items?limit=4`);
    expect(page1.json().items.map((item: { outcome: string }) => item.outcome)).toEqual(['matched', 'amount_mismatch', 'currency_mismatch', 'status_mismatch']);
    const page2 = await get(`/api/admin/v1/reconciliations/${token}/items?limit=4&cursor=${page1.json().next_cursor}`);
    expect(page2.json().items.map((item: { outcome: string }) => item.outcome)).toEqual([
      'duplicate_in_file',
      'missing_in_payrail',
      'matched',
      'missing_in_file',
    ]);
    expect(page2.json().next_cursor).toBeNull();
    const missing = await get(`/api/admin/v1/reconciliations/${token}/items?outcome=missing_in_file`);
    expect(missing.json().items).toEqual([
      expect.objectContaining({ line: null, gateway_token: 'psp5', payrail_amount_minor: 1005, payrail_currency: 'EUR', payrail_status: 'approved' }),
    ]);
    const amount = (await get(`/api/admin/v1/reconciliations/${token}/items?outcome=amount_mismatch`)).json().items[0];
    expect(amount).toMatchObject({ line: 3, file_amount_minor: 1007, payrail_amount_minor: 1002, file_status: 'approved' });
    const csv = await get(`/api/admin/v1/reconciliations/${token}/report.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'item,line,outcome,gateway_token,file_amount_minor,file_currency,file_fee_minor,file_status,file_date,payment_token,payrail_amount_minor,payrail_currency,payrail_status',
    );
    expect(lines).toHaveLength(9);
    expect(lines[6]).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    const only = await get(`/api/admin/v1/reconciliations/${token}/report.csv?outcome=matched`);
    expect(only.body.trimEnd().split('\r\n')).toHaveLength(3);
    expect((await get('/api/admin/v1/reconciliations/rec_unknown/report.csv')).statusCode).toBe(404);
    expect((await get(`/api/admin/v1/reconciliations/${token}/items?cursor=abc`)).statusCode).toBe(422);
    expect((await get(`/api/admin/v1/reconciliations/${token}/items?limit=101`)).statusCode).toBe(422);
  });

  it('refuses a file it cannot read, naming the line, keeps the failure listed, and imports the same file once the mapping reads it', async () => {
    const file = `${HEADER}psp1,${majorAmount(1)},EUR,0.20,SETTLED,${bookedAt(FROM, 1)}\npsp2,${majorAmount(2)},EUR,0.20,PAID,${bookedAt(FROM, 2)}\n`;
    const refused = await importFile(harness, otherGatewayId, file);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0]).toMatchObject({ code: 'invalid_settlement_file', field: 'file' });
    expect(refused.json().errors[0].message).toMatch(/^line 3: state "PAID" is not a status word/);
    const listed = (await get(`/api/admin/v1/reconciliations?gatewayId=${otherGatewayId}`)).json().reconciliations;
    expect(listed).toEqual([expect.objectContaining({ status: 'failed', file_sha256: null, summary: null })]);
    expect(listed[0].error).toMatch(/line 3/);
    expect((await get(`/api/admin/v1/reconciliations/${listed[0].token}/items`)).statusCode).toBe(409);
    const statuses = { ...MAPPING.statuses, PAID: 'approved' };
    await harness.app.inject({
      method: 'PUT',
      url: `/api/admin/v1/gateways/${otherGatewayId}/settlement-columns`,
      headers: adminHeaders(harness),
      payload: { columns: { ...MAPPING, statuses } },
    });
    const imported = await importFile(harness, otherGatewayId, file);
    expect(imported.statusCode).toBe(201);
    expect(imported.json().reconciliation.summary.counts).toMatchObject({ matched: 2, missing_in_file: 0 });
  });

  it.each([
    ['a header without a mapped column', 'psp_reference,gross,ccy,fee,state\npsp1,1,EUR,0,SETTLED\n', 422, /lacks the mapped column\(s\) "booked_at"/],
    [
      'an amount with more decimals than the currency',
      `${HEADER}psp1,10.001,EUR,0,SETTLED,2026-11-10\n`,
      422,
      /^line 2: gross "10.001" has more decimals than EUR allows/,
    ],
    ['a line of another length', `${HEADER}psp1,10.00,EUR\n`, 422, /could not be read/],
    ['a header alone', HEADER, 422, /no lines/],
  ])('refuses %s', async (_name, file, status, message) => {
    const response = await importFile(harness, gatewayId, file);
    expect(response.statusCode).toBe(status);
    expect(response.json().errors[0].message).toMatch(message);
  });

  it('refuses an import without a mapping, for an unknown gateway, without the admin key, or without a file', async () => {
    const merchant = await harness.createMerchant('Unmapped');
    const unmapped = await addSettlementGateway(harness, merchant.id);
    await harness.app.inject({
      method: 'PUT',
      url: `/api/admin/v1/gateways/${unmapped}/settlement-columns`,
      headers: adminHeaders(harness),
      payload: { columns: null },
    });
    expect((await importFile(harness, unmapped, smallFile())).statusCode).toBe(409);
    expect((await importFile(harness, 999_999, smallFile())).statusCode).toBe(404);
    const anonymous = await harness.app.inject({ method: 'POST', url: '/api/admin/v1/reconciliations', payload: { gatewayId } });
    expect(anonymous.statusCode).toBe(401);
    const json = await harness.app.inject({ method: 'POST', url: '/api/admin/v1/reconciliations', headers: adminHeaders(harness), payload: { gatewayId } });
    expect(json.statusCode).toBe(415);
  });
});
