import Type from 'typebox';
import { answerPart } from './admin-answers.ts';
import type { AdminClient } from './admin-client.ts';
import { CliError } from './cli-error.ts';

export interface StatsCommandOptions {
  json: boolean;
}

// The rebuild reads every payment before it answers: more than a usual admin call's wait, less than the server's
// 180 s idle limit on the connection (platform/lib/server-timeouts.ts). Cut off, it still finishes on the server.
const BACKFILL_TIMEOUT_MS = 170_000;

// payrail stats backfill      the daily aggregates computed again from the payments (POST /stats/rebuild)
export async function runStatsCommand(client: AdminClient, action: string, options: StatsCommandOptions, print: (line: string) => void): Promise<void> {
  if (action !== 'backfill') throw new CliError(`unknown stats action "${action}": backfill`);
  const started = Date.now();
  const answer = await client.call('POST', '/stats/rebuild', undefined, { timeoutMs: BACKFILL_TIMEOUT_MS });
  const rebuilt = { paymentCount: answerPart(answer, 'paymentCount', Type.Integer()), bucketCount: answerPart(answer, 'bucketCount', Type.Integer()) };
  if (options.json) return print(JSON.stringify(rebuilt));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  print(`daily stats rebuilt from ${rebuilt.paymentCount} final payments: ${rebuilt.bucketCount} aggregate rows, in ${seconds} s`);
}
