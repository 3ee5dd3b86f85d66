import { describe, expect, it } from 'vitest';
import { cliAgainstRunningServer } from '../../support/cli-server.ts';
import { CliError } from '../../../src/cli/cli-error.ts';
import { runStatsCommand } from '../../../src/cli/stats-commands.ts';

// `payrail stats backfill`: the dashboard's daily aggregates rebuilt from the payments, through the admin API
// (POST /api/admin/v1/stats/rebuild), while the server holds the embedded database.
describe('payrail stats backfill against a running server', () => {
  const running = cliAgainstRunningServer();

  const run = async (action: string, json: boolean) => {
    const lines: string[] = [];
    await runStatsCommand(running.client(), action, { json }, (line) => lines.push(line));
    return lines;
  };

  it('rebuilds the aggregates and says how many payments and rows it counted', async () => {
    expect(JSON.parse((await run('backfill', true))[0]!)).toEqual({ paymentCount: 0, bucketCount: 0 });
    expect((await run('backfill', false))[0]).toMatch(/^daily stats rebuilt from 0 final payments: 0 aggregate rows, in \d+\.\d s$/);
  });

  it('refuses an action it does not know', async () => {
    await expect(run('rebuild', false)).rejects.toThrow(CliError);
  });
});
