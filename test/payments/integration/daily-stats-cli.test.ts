import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, type AdminClient } from '../../../src/cli/admin-client.ts';
import { CliError } from '../../../src/cli/cli-error.ts';
import { runStatsCommand } from '../../../src/cli/stats-commands.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

// `payrail stats backfill`: the dashboard's daily aggregates rebuilt from the payments, through the admin API
// (POST /api/admin/v1/stats/rebuild), while the server holds the embedded database.
describe('payrail stats backfill against a running server', () => {
  let server: ServerHarness;
  let client: AdminClient;

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    client = adminClient(server.running.app.payrail.config, server.baseUrl);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  const run = async (action: string, json: boolean) => {
    const lines: string[] = [];
    await runStatsCommand(client, action, { json }, (line) => lines.push(line));
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
