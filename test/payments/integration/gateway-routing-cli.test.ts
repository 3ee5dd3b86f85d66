import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, type AdminClient } from '../../../src/cli/admin-client.ts';
import { CliError } from '../../../src/cli/cli-error.ts';
import { runGatewayCommand, type GatewayCommandOptions } from '../../../src/cli/gateway-commands.ts';
import { testEngines } from '../../support/databases.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();

// `payrail gateway add|update --routing JSON`: the routing rules of docs/routing, through the admin API.
describe.each(engines)('payrail gateway --routing against a running server on %s', (engine) => {
  let server: ServerHarness;
  let client: AdminClient;
  let merchantId: number;

  beforeAll(async () => {
    server = await startServerHarness(engine);
    client = adminClient(server.running.app.payrail.config, server.baseUrl);
    merchantId = (await server.createMerchant('CLI routing merchant')).id;
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  const settings = JSON.stringify({
    api_key: 'ak_live_cli',
    sign_key: randomBytes(16).toString('hex'),
    enable_routing: true,
    gateway_settings: { processing_method: 'http_requests', full_link: 'https://adapter.example/v1' },
  });
  const gatewayJson = async (action: string, options: Partial<GatewayCommandOptions>) => {
    const lines: string[] = [];
    await runGatewayCommand(client, action, { json: true, ...options }, (line) => lines.push(line));
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]!);
  };

  it('adds a gateway with routing rules, replaces them, and removes them with null', async () => {
    const added = await gatewayJson('add', {
      merchant: String(merchantId),
      alias: 'eu-cards',
      environment: 'production',
      settings,
      routing: '{"currencies":["EUR"],"card_brands":["visa"],"weight":250}',
    });
    expect(added.routing).toEqual({ currencies: ['EUR'], card_brands: ['visa'], weight: 250 });
    const updated = await gatewayJson('update', { merchant: String(merchantId), id: String(added.id), routing: '{"amount_max":50000}' });
    expect(updated.routing).toEqual({ amount_max: 50000 });
    const cleared = await gatewayJson('update', { merchant: String(merchantId), id: String(added.id), routing: 'null' });
    expect(cleared.routing).toBeNull();
  });

  it('refuses rules that are not JSON objects before sending, and reports what the server refused', async () => {
    const base = { merchant: String(merchantId), alias: 'bad', environment: 'production', settings };
    await expect(gatewayJson('add', { ...base, routing: '{"currencies":' })).rejects.toThrow(/--routing is not valid JSON/);
    await expect(gatewayJson('add', { ...base, routing: 'null' })).rejects.toThrow(/--routing must be a JSON object/);
    const refused = gatewayJson('add', { ...base, routing: '{"weight":0}' });
    await expect(refused).rejects.toBeInstanceOf(CliError);
    await expect(refused).rejects.toThrow(/routing\.weight/);
  });
});
