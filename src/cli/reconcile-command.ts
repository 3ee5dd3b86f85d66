import { randomBytes } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import Type, { type Static } from 'typebox';
import { csvLine } from '../back-office/index.ts';
import { answerPart } from './admin-answers.ts';
import type { AdminClient, AdminUploader } from './admin-client.ts';
import { CliError } from './cli-error.ts';
import { errorMessage } from '../platform/lib/type-guards.ts';

export interface ReconcileOptions {
  gateway?: string | undefined;
  file?: string | undefined;
  id?: string | undefined;
  mapping?: string | undefined;
  csv: boolean;
  json: boolean;
}

const UPLOAD_TIMEOUT_MS = 15 * 60_000; // the server answers when the whole file is reconciled
const ITEMS_PAGE = 100;
const ID_PATTERN = /^[1-9][0-9]{0,15}$/;
const Summary = Type.Object({
  counts: Type.Record(Type.String(), Type.Number()),
  fees: Type.Array(
    Type.Object({ currency: Type.String(), file_fee_minor: Type.Number(), matched_file_fee_minor: Type.Number(), payrail_commission_minor: Type.Number() }),
  ),
});
const Reconciliation = Type.Object({
  token: Type.String(),
  gateway_id: Type.Number(),
  status: Type.String(),
  line_count: Type.Number(),
  period_from: Type.Union([Type.String(), Type.Null()]),
  period_to: Type.Union([Type.String(), Type.Null()]),
  summary: Type.Union([Summary, Type.Null()]),
});
const Item = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()]));
const ITEM_COLUMNS = ['item', 'line', 'outcome', 'gateway_token', 'file_amount_minor', 'file_currency', 'file_fee_minor', 'file_status', 'file_date'];
const PAYRAIL_COLUMNS = ['payment_token', 'payrail_amount_minor', 'payrail_currency', 'payrail_status'];

function idOf(value: string | undefined, option: string, usage: string): string {
  if (value === undefined || !ID_PATTERN.test(value)) throw new CliError(`${usage} needs ${option} <id>`);
  return value;
}

// payrail reconcile --gateway GID --file settlement.csv [--csv]: the file goes up as it is read from disk.
export async function runReconcileCommand(client: AdminClient & AdminUploader, options: ReconcileOptions, print: (line: string) => void): Promise<void> {
  const gatewayId = idOf(options.gateway, '--gateway', 'payrail reconcile');
  if (options.file === undefined) throw new CliError('payrail reconcile needs --file <settlement.csv>');
  try {
    if (!statSync(options.file).isFile()) throw new Error('not a file');
  } catch (error) {
    throw new CliError(`cannot read ${options.file}: ${errorMessage(error)}`);
  }
  const boundary = `payrail-${randomBytes(12).toString('hex')}`;
  const answer = await client.upload(
    '/reconciliations',
    { contentType: `multipart/form-data; boundary=${boundary}`, body: Readable.from(formParts(boundary, gatewayId, options.file)) },
    { timeoutMs: UPLOAD_TIMEOUT_MS },
  );
  const reconciliation = answerPart(answer, 'reconciliation', Reconciliation);
  if (options.csv) return printReport(client, reconciliation.token, print);
  if (options.json) return print(JSON.stringify(answer['reconciliation']));
  printSummary(reconciliation, print);
}

async function* formParts(boundary: string, gatewayId: string, path: string): AsyncGenerator<Buffer> {
  const fileName = basename(path).replace(/["\r\n]/g, '_');
  yield Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="gatewayId"\r\n\r\n${gatewayId}\r\n`);
  yield Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${fileName}"\r\ncontent-type: text/csv\r\n\r\n`);
  for await (const chunk of createReadStream(path)) yield chunk as Buffer;
  yield Buffer.from(`\r\n--${boundary}--\r\n`);
}

function printSummary(reconciliation: Static<typeof Reconciliation>, print: (line: string) => void): void {
  print(`Reconciliation ${reconciliation.token} of gateway #${reconciliation.gateway_id}: ${reconciliation.status}, ${reconciliation.line_count} lines`);
  if (reconciliation.period_from !== null) print(`  period ${reconciliation.period_from} – ${reconciliation.period_to ?? ''}`);
  const summary = reconciliation.summary;
  if (summary === null) return;
  for (const [outcome, count] of Object.entries(summary.counts)) print(`  ${outcome.padEnd(20)} ${count}`);
  for (const fee of summary.fees) {
    print(
      `  fees ${fee.currency}: file ${fee.file_fee_minor} (on matched payments ${fee.matched_file_fee_minor}), Payrail commission ${fee.payrail_commission_minor}`,
    );
  }
}

// The report as CSV, page by page over the items (the same columns as report.csv).
async function printReport(client: AdminClient, token: string, print: (line: string) => void): Promise<void> {
  print(csvLine([...ITEM_COLUMNS, ...PAYRAIL_COLUMNS]).trimEnd());
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: String(ITEMS_PAGE), ...(cursor === null ? {} : { cursor }) });
    const answer = await client.call('GET', `/reconciliations/${token}/items?${query}`);
    for (const item of answerPart(answer, 'items', Type.Array(Item)))
      print(csvLine([...ITEM_COLUMNS, ...PAYRAIL_COLUMNS].map((column) => item[column] ?? null)).trimEnd());
    cursor = answerPart(answer, 'next_cursor', Type.Union([Type.String(), Type.Null()]));
  } while (cursor !== null);
}

// payrail gateway settlement-columns --id GID [--mapping JSON|null]
export async function runSettlementColumnsCommand(client: AdminClient, options: ReconcileOptions, print: (line: string) => void): Promise<void> {
  const gatewayId = idOf(options.id, '--id', 'payrail gateway settlement-columns');
  const path = `/gateways/${gatewayId}/settlement-columns`;
  let answer: Record<string, unknown>;
  if (options.mapping === undefined) answer = await client.call('GET', path);
  else {
    let columns: unknown;
    try {
      columns = JSON.parse(options.mapping);
    } catch {
      throw new CliError('--mapping is JSON: {"gatewayToken":"…","amount":"…","currency":"…","status":"…","date":"…"} or null');
    }
    answer = await client.call('PUT', path, { columns });
  }
  const gateway = answerPart(answer, 'gateway', Type.Object({ id: Type.Number(), alias: Type.String(), settlement_columns: Type.Unknown() }));
  if (options.json) return print(JSON.stringify(gateway));
  const columns = gateway.settlement_columns;
  print(
    columns === null
      ? `Gateway #${gateway.id} "${gateway.alias}" has no settlement columns.`
      : `Gateway #${gateway.id} "${gateway.alias}" settlement columns: ${JSON.stringify(columns)}`,
  );
}
