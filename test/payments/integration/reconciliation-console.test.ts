import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRowsOf } from '../../support/audit.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { signedInOperator, type OpsClient } from '../../support/ops.ts';
import { HEADER, addSettlementGateway, bookedAt, insertSettledPayments, majorAmount } from './reconciliation-fixtures.ts';

const engines = await testEngines();
const FROM = '2026-11-10T08:00:00.000Z';

// The console's reconciliation pages (/ops/reconciliations): finance and admin import a file and read its report.
describe.each(engines)('reconciliation in the operator console on %s', (engine) => {
  let harness: Harness;
  let finance: OpsClient;
  let support: OpsClient;
  let gatewayId: number;

  beforeAll(async () => {
    harness = await startHarness(engine);
    const merchant = await harness.createMerchant('Console reconciled merchant');
    gatewayId = await addSettlementGateway(harness, merchant.id);
    await insertSettledPayments(harness.database, { merchantId: merchant.id, gatewayId, count: 2, tokenPrefix: 'psp', finalizedFrom: FROM });
    finance = await signedInOperator(harness, { role: 'finance' });
    support = await signedInOperator(harness, { role: 'support' });
  });
  afterAll(async () => harness?.close());

  const upload = async (operator: OpsClient, csv: string) => {
    const page = await operator.get('/ops/reconciliations');
    const action =
      /<form method="post" action="([^"]+)" enctype="multipart\/form-data"/.exec(page.body)?.[1]?.replaceAll('&amp;', '&') ?? '/ops/reconciliations';
    const boundary = '----payrailconsole';
    const payload = [
      `--${boundary}\r\ncontent-disposition: form-data; name="gatewayId"\r\n\r\n${gatewayId}\r\n`,
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="nov.csv"\r\ncontent-type: text/csv\r\n\r\n${csv}\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    return harness.app.inject({
      method: 'POST',
      url: action,
      headers: { cookie: operator.cookieHeader(), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
  };

  it('lets finance import a file and read the report, and records both in the audit log', async () => {
    const list = await finance.get('/ops/reconciliations');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('href="/ops/reconciliations" aria-current="page">Reconciliation</a>');
    const csv = `${HEADER}psp1,${majorAmount(1)},EUR,0.20,SETTLED,${bookedAt(FROM, 1)}\npsp2,${majorAmount(2, 3)},EUR,0.20,SETTLED,${bookedAt(FROM, 2)}\n`;
    const imported = await upload(finance, csv);
    expect(imported.statusCode, imported.body).toBe(303);
    const location = String(imported.headers.location);
    expect(location).toMatch(/^\/ops\/reconciliations\/rec_/);
    const detail = await finance.get(location);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('Matched</a>: 1');
    expect(detail.body).toContain('Amount differs</a>: 1');
    const differing = await finance.get(`${location}?outcome=amount_mismatch`);
    expect(differing.body).toContain('<code>psp2</code>');
    expect(differing.body).not.toContain('<code>psp1</code>');
    const report = await finance.get(`${location}/report.csv`);
    expect(report.statusCode).toBe(200);
    expect(report.body.trimEnd().split('\r\n')).toHaveLength(3);
    const token = location.split('/').at(-1);
    const audit = await auditRowsOf(harness.database, { subjectType: 'gateway', subjectId: gatewayId, action: 'reconciliation.import' });
    expect(audit).toEqual([expect.objectContaining({ actor: `operator:${finance.operatorId}` })]);
    const exported = await auditRowsOf(harness.database, { subjectType: 'reconciliation', subjectId: token, action: 'reconciliation.export' });
    expect(exported).toHaveLength(1);
  });

  it('shows a file it cannot read as a refusal and keeps it listed as failed', async () => {
    const refused = await upload(finance, `${HEADER}psp1,abc,EUR,0.20,SETTLED,2026-11-10\n`);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('line 2: gross');
    expect((await finance.get('/ops/reconciliations')).body).toContain('failed: line 2: gross');
  });

  it('refuses the support role, and hides the page from its navigation', async () => {
    expect((await support.get('/ops/reconciliations')).statusCode).toBe(403);
    expect((await support.get('/ops')).body).not.toContain('/ops/reconciliations');
    expect((await upload(support, HEADER)).statusCode).toBe(403);
  });
});
