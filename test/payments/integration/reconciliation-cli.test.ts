import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '../../../src/cli/admin-client.ts';
import { CliError } from '../../../src/cli/cli-error.ts';
import { runReconcileCommand, runSettlementColumnsCommand, type ReconcileOptions } from '../../../src/cli/reconcile-command.ts';
import { testEngines } from '../../support/databases.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { HEADER, MAPPING, bookedAt, insertSettledPayments, majorAmount } from './reconciliation-fixtures.ts';

const engines = await testEngines();
const FROM = '2026-11-10T08:00:00.000Z';

// `payrail gateway settlement-columns` and `payrail reconcile` against a running server (the real HTTPS socket, the
// file streamed from disk as a multipart upload).
describe.each(engines)('payrail reconcile against a running server on %s', (engine) => {
  let server: ServerHarness;
  let client: ReturnType<typeof adminClient>;
  let gatewayId: number;
  let folder: string;
  let file: string;

  beforeAll(async () => {
    server = await startServerHarness(engine);
    client = adminClient(server.running.app.payrail.config, server.baseUrl);
    const merchant = await server.createMerchant('CLI reconciled merchant');
    const settings = {
      api_key: 'ak_live_cli',
      sign_key: 'a'.repeat(32),
      gateway_settings: { processing_method: 'http_requests', full_link: 'https://psp.example/adapter' },
    };
    const created = await server.call('POST', `/api/admin/v1/merchants/${merchant.id}/gateways`, {
      key: server.adminKey,
      body: { alias: 'psp', environment: 'production', settings },
    });
    gatewayId = created.body.gateway.id;
    await insertSettledPayments(server.running.app.payrail.database, { merchantId: merchant.id, gatewayId, count: 3, tokenPrefix: 'psp', finalizedFrom: FROM });
    folder = await mkdtemp(join(tmpdir(), 'payrail-reconcile-'));
    file = join(folder, 'settlement.csv');
    const lines = [1, 2].map((i) => `psp${i},${majorAmount(i, i === 2 ? 1 : 0)},EUR,0.20,SETTLED,${bookedAt(FROM, i)}`);
    await writeFile(file, `${HEADER}${lines.join('\n')}\nunknown,1.00,EUR,0.10,SETTLED,${bookedAt(FROM, 3)}\n`);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const run = async (command: typeof runReconcileCommand | typeof runSettlementColumnsCommand, options: Partial<ReconcileOptions>) => {
    const lines: string[] = [];
    await command(client, { csv: false, json: false, ...options }, (line) => lines.push(line));
    return lines;
  };

  it('saves and shows the mapping', async () => {
    expect(await run(runSettlementColumnsCommand, { id: String(gatewayId) })).toEqual([`Gateway #${gatewayId} "psp" has no settlement columns.`]);
    const saved = await run(runSettlementColumnsCommand, { id: String(gatewayId), mapping: JSON.stringify(MAPPING), json: true });
    expect(JSON.parse(saved[0]!).settlement_columns).toEqual(MAPPING);
    await expect(run(runSettlementColumnsCommand, { id: String(gatewayId), mapping: '{"amount":' })).rejects.toThrow(/--mapping is JSON/);
    await expect(run(runSettlementColumnsCommand, { id: String(gatewayId), mapping: '{"amount":"x"}' })).rejects.toThrow(/HTTP 422/);
  });

  it('uploads the file, prints the summary, and prints the same reconciliation for the same file', async () => {
    const printed = await run(runReconcileCommand, { gateway: String(gatewayId), file });
    expect(printed[0]).toMatch(new RegExp(`^Reconciliation rec_\\S+ of gateway #${gatewayId}: completed, 3 lines$`));
    expect(printed).toContain('  matched              1');
    expect(printed).toContain('  amount_mismatch      1');
    expect(printed).toContain('  missing_in_payrail   1');
    expect(printed).toContain('  missing_in_file      1');
    const again = await run(runReconcileCommand, { gateway: String(gatewayId), file });
    expect(again[0]).toBe(printed[0]);
  });

  it('prints the whole report as CSV', async () => {
    const csv = await run(runReconcileCommand, { gateway: String(gatewayId), file, csv: true });
    expect(csv[0]).toBe(
      'item,line,outcome,gateway_token,file_amount_minor,file_currency,file_fee_minor,file_status,file_date,payment_token,payrail_amount_minor,payrail_currency,payrail_status',
    );
    expect(csv.slice(1).map((line) => line.split(',')[2])).toEqual(['matched', 'amount_mismatch', 'missing_in_payrail', 'missing_in_file']);
  });

  it('refuses a missing file or gateway before sending anything', async () => {
    await expect(run(runReconcileCommand, { file })).rejects.toBeInstanceOf(CliError);
    await expect(run(runReconcileCommand, { gateway: String(gatewayId), file: join(folder, 'none.csv') })).rejects.toThrow(/cannot read/);
  });
});
