import { userInfo } from 'node:os';
import Type from 'typebox';
import { answerPart, ConflictSummary } from './admin-answers.ts';
import type { AdminClient } from './admin-client.ts';
import { CliError } from './cli-error.ts';

export interface ConflictCommandOptions {
  accept?: boolean | undefined;
  dismiss?: boolean | undefined;
  all?: boolean | undefined;
  operator?: string | undefined;
  json: boolean;
}

const LIST_PAGES_MAX = 20; // 20 pages of 100: the CLI shows at most 2000 conflicts
const LIST_PER_PAGE = 100;
const ID_PATTERN = /^[1-9]\d{0,15}$/;

// payrail conflicts [--all]                                   unresolved conflicts (--all: resolved ones too)
// payrail conflicts resolve <id> --accept|--dismiss [--operator NAME]
export async function runConflictCommand(
  client: AdminClient,
  positionals: readonly (string | undefined)[],
  options: ConflictCommandOptions,
  print: (line: string) => void,
): Promise<void> {
  const [action, id] = positionals;
  if (action === undefined || action === 'list') {
    const { unresolvedCount, conflicts } = await listConflicts(client, options.all === true);
    if (options.json) return print(JSON.stringify({ unresolvedCount, conflicts }));
    for (const conflict of conflicts) print(describe(conflict));
    print(`${unresolvedCount} unresolved conflict(s)`);
    return;
  }
  if (action !== 'resolve') throw new CliError(`unknown conflicts command "${action}": list | resolve <id> --accept|--dismiss`);
  if (id === undefined || !ID_PATTERN.test(id)) throw new CliError('conflicts resolve needs the conflict id: conflicts resolve <id> --accept|--dismiss');
  if (options.accept === options.dismiss) throw new CliError('conflicts resolve needs exactly one of --accept or --dismiss');
  const body = { action: options.accept ? 'accept' : 'dismiss', operator: options.operator ?? operatorName() };
  const answer = await client.call('POST', `/conflicts/${id}/resolve`, body);
  const conflict = answerPart(answer, 'conflict', ConflictSummary);
  print(options.json ? JSON.stringify(conflict) : describe(conflict));
}

async function listConflicts(client: AdminClient, all: boolean): Promise<{ unresolvedCount: number; conflicts: ConflictSummary[] }> {
  const conflicts: ConflictSummary[] = [];
  let unresolvedCount = 0;
  for (let page = 1; page <= LIST_PAGES_MAX; page += 1) {
    const query = new URLSearchParams({ state: all ? 'all' : 'unresolved', page: String(page), perPage: String(LIST_PER_PAGE) });
    const answer = await client.call('GET', `/conflicts?${query.toString()}`);
    const found = answerPart(answer, 'conflicts', Type.Array(ConflictSummary));
    unresolvedCount = answerPart(answer, 'unresolvedCount', Type.Number());
    conflicts.push(...found);
    if (found.length < LIST_PER_PAGE) break;
  }
  return { unresolvedCount, conflicts };
}

// Who resolves, as the server records it: the account running the CLI.
function operatorName(): string {
  try {
    return `${userInfo().username} (payrail CLI)`.slice(0, 100);
  } catch {
    return 'payrail CLI';
  }
}

function describe(conflict: ConflictSummary): string {
  const amount = conflict.reported_amount === null ? '' : ` ${conflict.reported_amount} ${conflict.reported_currency ?? ''}`.trimEnd();
  return [
    `#${conflict.id}`,
    `payment ${conflict.payment_token}`,
    `merchant #${conflict.merchant_id} ${conflict.environment}`,
    `kept ${conflict.payment_status} (now ${conflict.current_status})`,
    `${conflict.source} reported ${conflict.reported_status}${amount}`,
    `at ${conflict.created_at}`,
    conflict.resolution === null ? 'unresolved' : `${conflict.resolution} by ${conflict.resolved_by} at ${conflict.resolved_at}`,
  ].join('\t');
}
