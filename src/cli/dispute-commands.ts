import Type from 'typebox';
import { answerPart, DisputeSummary } from './admin-answers.ts';
import type { AdminClient } from './admin-client.ts';
import { CliError } from './cli-error.ts';

export interface DisputeCommandOptions {
  merchant?: string | undefined;
  status?: string | undefined;
  token?: string | undefined;
  outcome?: string | undefined;
  note?: string | undefined;
  json: boolean;
}

const STATUSES = ['open', 'under_review', 'won', 'lost'];
const TOKEN_PATTERN = /^[0-9a-f]{32}$/;
const LIST_PAGES_MAX = 20; // 20 pages of 100: the CLI shows at most 2000 disputes; narrow with --merchant / --status
const LIST_PER_PAGE = 100;

export async function runDisputeCommand(
  client: AdminClient,
  action: string | undefined,
  options: DisputeCommandOptions,
  print: (line: string) => void,
): Promise<void> {
  switch (action) {
    case 'list': {
      const disputes = await listDisputes(client, options);
      if (options.json) return print(JSON.stringify(disputes));
      for (const dispute of disputes) print(describe(dispute));
      if (disputes.length === 0) print('no disputes');
      return;
    }
    case 'get': {
      const answer = await client.call('GET', `/disputes/${requireToken(options)}`);
      const dispute = answerPart(answer, 'dispute', DisputeSummary);
      if (options.json) return print(JSON.stringify(dispute));
      print(describe(dispute));
      print(`  description: ${dispute.description}`);
      if (dispute.resolution_note !== null) print(`  note: ${dispute.resolution_note}`);
      for (const document of dispute.documents) {
        print(`  document ${document.id}: ${document.file_name} (${document.media_type}, ${document.size} bytes)`);
      }
      return;
    }
    case 'review': {
      const answer = await client.call('POST', `/disputes/${requireToken(options)}/review`);
      return printDispute(answer, options, print);
    }
    case 'resolve': {
      const token = requireToken(options);
      if (options.outcome !== 'won' && options.outcome !== 'lost') throw new CliError('dispute resolve needs --outcome won|lost');
      const body = options.note === undefined ? { outcome: options.outcome } : { outcome: options.outcome, note: options.note };
      const answer = await client.call('POST', `/disputes/${token}/resolve`, body);
      return printDispute(answer, options, print);
    }
    default:
      throw new CliError(`unknown dispute command "${action ?? ''}": list | get | review | resolve`);
  }
}

async function listDisputes(client: AdminClient, options: DisputeCommandOptions): Promise<DisputeSummary[]> {
  const query = new URLSearchParams({ perPage: String(LIST_PER_PAGE) });
  if (options.merchant !== undefined) {
    const merchantId = Number(options.merchant);
    if (!Number.isSafeInteger(merchantId) || merchantId < 1) throw new CliError('--merchant needs a merchant id');
    query.set('merchantId', String(merchantId));
  }
  if (options.status !== undefined) {
    if (!STATUSES.includes(options.status)) throw new CliError(`--status must be one of ${STATUSES.join(' | ')}`);
    query.set('status', options.status);
  }
  const disputes: DisputeSummary[] = [];
  for (let page = 0; page < LIST_PAGES_MAX; page += 1) {
    const answer = await client.call('GET', `/disputes?${query.toString()}`);
    disputes.push(...answerPart(answer, 'disputes', Type.Array(DisputeSummary)));
    const next = answer['nextCursor'];
    if (typeof next !== 'string') break;
    query.set('cursor', next);
  }
  return disputes;
}

function printDispute(answer: Record<string, unknown>, options: DisputeCommandOptions, print: (line: string) => void): void {
  const dispute = answerPart(answer, 'dispute', DisputeSummary);
  print(options.json ? JSON.stringify(dispute) : describe(dispute));
}

function requireToken(options: DisputeCommandOptions): string {
  if (!options.token || !TOKEN_PATTERN.test(options.token)) throw new CliError('this command needs --token <dispute token> (32 lowercase hex characters)');
  return options.token;
}

function describe(dispute: DisputeSummary): string {
  return [
    dispute.token,
    dispute.status,
    `merchant #${dispute.merchant_id} ${dispute.environment}`,
    `${dispute.amount} ${dispute.currency}`,
    `payment ${dispute.payment_token}`,
    `${dispute.documents.length} document(s)`,
    `opened ${dispute.created_at}`,
  ].join('\t');
}
