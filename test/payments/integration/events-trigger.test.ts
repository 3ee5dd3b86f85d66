import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const WAIT_MS = 20_000;

// Issue 23: `payrail trigger <type>` makes the sandbox produce each supported event through the merchant API.
describe('payrail trigger makes the sandbox produce each supported event', () => {
  let server: ServerHarness;
  let sandboxKey: string;
  let environment: NodeJS.ProcessEnv;

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    sandboxKey = (await server.createMerchant('Triggering merchant')).sandboxKey;
    environment = { PAYRAIL_DATA_DIR: server.running.app.payrail.config.dataDir };
  });
  afterAll(async () => server?.close());

  it.each(['payment.declined', 'refund.approved', 'payout.approved', 'dispute.opened'])('triggers %s', async (type) => {
    const triggered = await runCli(['trigger', type, '--key', sandboxKey, '--url', server.baseUrl], environment);
    expect(triggered.exitCode, triggered.stderr).toBe(0);
    const token = new RegExp(`^${type.replace('.', '\\.')} {2}([0-9a-f]{32})$`, 'm').exec(triggered.stdout)?.[1];
    expect(token, triggered.stdout).toBeDefined();
    const listedTokens = async () => {
      const listed = await server.call('GET', `/api/v1/events?type=${type}`, { key: sandboxKey });
      return listed.body.events.map((event: { paymentToken: string }) => event.paymentToken);
    };
    await expect.poll(listedTokens, { timeout: WAIT_MS, interval: 200 }).toContain(token);
  });
});
