import { afterAll, beforeAll } from 'vitest';
import { adminClient, type AdminClient } from '../../src/cli/admin-client.ts';
import { startServerHarness, type ServerHarness } from './server-harness.ts';

// A describe block's running server (embedded engine) and the CLI's admin client to it, started before its tests
// and closed after them: the CLI commands' tests call the command functions against it.
export function cliAgainstRunningServer(): { server(): ServerHarness; client(): AdminClient } {
  let server: ServerHarness | undefined;
  let client: AdminClient | undefined;
  beforeAll(async () => {
    server = await startServerHarness('pglite');
    client = adminClient(server.running.app.payrail.config, server.baseUrl);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the server is not started yet');
    return value;
  };
  return { server: () => started(server), client: () => started(client) };
}
