import { isOneOf } from '../platform/lib/type-guards.ts';
import { answerPart, MerchantCommissions } from './admin-answers.ts';
import type { AdminClient } from './admin-client.ts';
import { CliError } from './cli-error.ts';

export interface CommissionCommandOptions {
  id?: string | undefined;
  operation?: string | undefined;
  percent?: string | undefined;
  fixed?: string | undefined;
  clear: boolean;
  json: boolean;
}

const OPERATIONS = ['pay', 'payout', 'refund'] as const;
type Terms = { percent: number; fixed: number } | null;

export const COMMISSION_ACTIONS: readonly string[] = ['commissions', 'set-commission'];

// payrail merchant commissions --id ID | merchant set-commission --id ID --operation OP (--percent P --fixed F | --clear)
export async function runCommissionCommand(
  client: AdminClient,
  action: string,
  options: CommissionCommandOptions,
  print: (line: string) => void,
): Promise<void> {
  const id = requireId(options.id);
  if (action === 'commissions') {
    return show(await client.call('GET', `/merchants/${id}/commissions`), options.json, print);
  }
  if (action !== 'set-commission') throw new CliError(`unknown commission command "${action}": commissions | set-commission`);
  const operation = options.operation;
  if (!isOneOf(OPERATIONS, operation)) throw new CliError('merchant set-commission needs --operation pay|payout|refund');
  return show(await client.call('PUT', `/merchants/${id}/commissions`, { [operation]: termsOf(options) }), options.json, print);
}

function termsOf(options: CommissionCommandOptions): Terms {
  if (options.clear) {
    if (options.percent !== undefined || options.fixed !== undefined) throw new CliError('give --clear alone, or --percent and --fixed');
    return null;
  }
  // Both parts, always: the terms of an operation are replaced whole.
  if (options.percent === undefined || options.fixed === undefined)
    throw new CliError('merchant set-commission needs --percent P and --fixed F (0 for none), or --clear');
  return { percent: numberOf('--percent', options.percent), fixed: numberOf('--fixed', options.fixed) };
}

// The server checks the bounds and the decimals; here only that the text is a number at all.
function numberOf(flag: string, text: string): number {
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text.trim())) throw new CliError(`${flag} must be a non-negative number, not "${text}"`);
  return Number(text);
}

function requireId(text: string | undefined): number {
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id < 1) throw new CliError('this command needs --id <merchant id>');
  return id;
}

function show(answer: Record<string, unknown>, json: boolean, print: (line: string) => void): void {
  const commissions = answerPart(answer, 'commissions', MerchantCommissions);
  if (json) {
    print(JSON.stringify({ merchantId: answer['merchantId'], commissions }));
    return;
  }
  print(`Commissions of merchant #${String(answer['merchantId'])}:`);
  for (const operation of OPERATIONS) {
    const terms = commissions[operation];
    print(`  ${operation.padEnd(7)}${terms ? `${terms.percent} % + ${terms.fixed} minor units` : 'none'}`);
  }
}
