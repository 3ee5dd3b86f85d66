import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, type AdminClient } from '../../../src/cli/admin-client.ts';
import { CliError } from '../../../src/cli/cli-error.ts';
import { runGatewayCommand, type GatewayCommandOptions } from '../../../src/cli/gateway-commands.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();

const API_KEY = 'ak_live_do_not_show_me_0123456789';
const SIGN_KEY = 'sign_key_do_not_show_me_abcdef12'; // exactly 32 characters
const RABBIT_PASSWORD = 'rabbit_password_do_not_show_me';

function gatewaySettings(overrides: Record<string, unknown> = {}, gatewayOverrides: Record<string, unknown> = {}) {
  return {
    api_key: API_KEY,
    sign_key: SIGN_KEY,
    sandbox: false,
    host2host: true,
    validate_signature: true,
    gateway_settings: {
      processing_method: 'http_requests',
      full_link: 'http://127.0.0.1:9/acquirer', // nothing listens there: a call is refused at once
      methods: { pay: { response_timeout: 5, final_waiting_seconds: 30 } },
      status_checker_time_rates: { '1-3': 30, '4-': 60 },
      ...gatewayOverrides,
    },
    ...overrides,
  };
}

describe.each(engines)('gateway admin API on %s', (engine) => {
  let harness: Harness;
  const responseBodies: string[] = [];

  beforeAll(async () => {
    harness = await startHarness(engine, { PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1' });
  });
  afterAll(async () => harness?.close());

  const admin = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, key: string | null = harness.adminKey) => {
    const response = await harness.app.inject({
      method,
      url: `/api/admin/v1${url}`,
      headers: key === null ? {} : { authorization: `Bearer ${key}` },
      ...(payload ? { payload } : {}),
    });
    responseBodies.push(response.body);
    return { status: response.statusCode, body: response.json() };
  };
  const addGateway = (merchantId: number, body: Record<string, unknown>) => admin('POST', `/merchants/${merchantId}/gateways`, body);

  it('adds a gateway and answers with its settings, api_key and sign_key masked', async () => {
    const merchant = await harness.createMerchant();
    const added = await addGateway(merchant.id, { alias: 'acquirer', environment: 'production', settings: gatewaySettings() });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      success: true,
      gateway: {
        id: expect.any(Number),
        merchant_id: merchant.id,
        alias: 'acquirer',
        environment: 'production',
        status: 'active',
        settings: { ...gatewaySettings(), api_key: `****${API_KEY.slice(-4)}`, sign_key: `****${SIGN_KEY.slice(-4)}` },
        routing: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
  });

  it.each([
    ['a sign_key of 31 characters', { settings: gatewaySettings({ sign_key: 'k'.repeat(31) }) }, 'settings.sign_key'],
    ['a sign_key of 33 characters', { settings: gatewaySettings({ sign_key: 'k'.repeat(33) }) }, 'settings.sign_key'],
    ['a provider key nested five levels deep', { settings: gatewaySettings({ brand: { a: { b: { c: { d: { e: 1 } } } } } }) }, 'settings.brand.a.b.c.d'],
    ['a provider string of 8193 characters', { settings: gatewaySettings({}, { brand_id: 'b'.repeat(8193) }) }, 'settings.gateway_settings.brand_id'],
    ['a provider list of 65 items', { settings: gatewaySettings({ brands: Array.from({ length: 65 }, (_, index) => index) }) }, 'settings.brands'],
    [
      'more than 64 keys in settings',
      { settings: gatewaySettings(Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`extra_${index}`, index]))) },
      'settings',
    ],
    [
      'provider keys over 64 KiB of JSON',
      { settings: gatewaySettings(Object.fromEntries(Array.from({ length: 9 }, (_, index) => [`blob_${index}`, 'x'.repeat(8000)]))) },
      'settings',
    ],
    ['a known field of the wrong type beside provider keys', { settings: gatewaySettings({ sandbox: 'yes', brand_id: 'b1' }) }, 'settings.sandbox'],
    [
      "a provider's key inside a method beyond its bounds",
      { settings: gatewaySettings({}, { methods: { pay: { notes: 'x'.repeat(8193) } } }) },
      'settings.gateway_settings.methods.pay.notes',
    ],
    ['an unknown body field', { settings: gatewaySettings(), priority: 1 }, 'priority'],
    ['a missing full_link', { settings: gatewaySettings({}, { full_link: undefined }) }, 'settings.gateway_settings.full_link'],
    ['a full_link that is not http(s)', { settings: gatewaySettings({}, { full_link: 'ftp://adapter.example/x' }) }, 'settings.gateway_settings.full_link'],
    ['an empty api_key (one without is accepted)', { settings: gatewaySettings({ api_key: '' }) }, 'settings.api_key'],
    [
      'a response_timeout of 0 s',
      { settings: gatewaySettings({}, { methods: { pay: { response_timeout: 0 } } }) },
      'settings.gateway_settings.methods.pay.response_timeout',
    ],
    ['an environment other than sandbox or production', { settings: gatewaySettings(), environment: 'staging' }, 'environment'],
    ['an alias with spaces', { settings: gatewaySettings(), alias: 'my acquirer' }, 'alias'],
  ])('refuses %s with 422 naming the field', async (_label, body, field) => {
    const merchant = await harness.createMerchant();
    const refused = await addGateway(merchant.id, { alias: 'acquirer', environment: 'production', ...body });
    expect(refused.status).toBe(422);
    expect(refused.body.success).toBe(false);
    expect(refused.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect((await admin('GET', `/merchants/${merchant.id}/gateways`)).body.gateways).toEqual([]);
  });

  // Public adapters need keys spec 2.10 does not define (brand_id, assets_public_key, client_id, secret, …).
  const providerKeys = {
    brand_id: 'brand-42',
    assets_public_key: 'pk_live_public_0123456789', // a public key is not a secret: shown in clear
    client_id: 'client-7',
    secret: 'top_secret_value_abcd',
    client_secret: 'client_secret_value_wxyz',
    PIN_Secret: 'abc', // too short to show any of it
    provider: { merchant_code: 'm-1', webhook_Token: 'whtok_1234567890_efgh', limits: [1, 2, 3] },
    terminals: [{ id: 't1', terminalKey: 'tk_terminal_key_ijkl' }],
  };
  const providerGatewayKeys = { region: 'eu', api_password: 'provider_password_mnop' };
  const secretValues = ['top_secret_value_abcd', 'client_secret_value_wxyz', 'whtok_1234567890_efgh', 'tk_terminal_key_ijkl', 'provider_password_mnop'];

  it('accepts provider-specific keys beside those of spec 2.10 and lists them, masking the ones named like secrets', async () => {
    const merchant = await harness.createMerchant();
    const settings = gatewaySettings({ ...providerKeys, assets: { 'client.p12': 'MIIKPAIBAzCCCfYGCSqGSIb3DQEHAaCCCecEggnjMIIJ3zCCBg' } }, providerGatewayKeys);
    const added = await addGateway(merchant.id, { alias: 'public-adapter', environment: 'production', settings });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const listed = (await admin('GET', `/merchants/${merchant.id}/gateways`)).body.gateways;
    expect(listed).toHaveLength(1);
    expect(listed[0].settings).toEqual({
      ...gatewaySettings({}, providerGatewayKeys),
      api_key: `****${API_KEY.slice(-4)}`,
      sign_key: `****${SIGN_KEY.slice(-4)}`,
      brand_id: 'brand-42',
      assets_public_key: 'pk_live_public_0123456789',
      client_id: 'client-7',
      secret: '****abcd',
      client_secret: '****wxyz',
      PIN_Secret: '****',
      provider: { merchant_code: 'm-1', webhook_Token: '****efgh', limits: [1, 2, 3] },
      terminals: [{ id: 't1', terminalKey: '****ijkl' }],
      assets: { 'client.p12': '****CCBg' }, // a certificate bundle may hold its private key
      gateway_settings: { ...gatewaySettings({}, providerGatewayKeys).gateway_settings, api_password: '****mnop' },
    });
    for (const body of responseBodies) for (const secret of secretValues) expect(body).not.toContain(secret);
  });

  it('keeps provider keys through an update with PUT', async () => {
    const merchant = await harness.createMerchant();
    const gatewayId = (await addGateway(merchant.id, { alias: 'acquirer', environment: 'production', settings: gatewaySettings() })).body.gateway.id;
    const replaced = await admin('PUT', `/merchants/${merchant.id}/gateways/${gatewayId}`, {
      settings: gatewaySettings({ brand_id: 'brand-43' }, { region: 'us' }),
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.gateway.settings).toMatchObject({ brand_id: 'brand-43', gateway_settings: { region: 'us' } });
  });

  // One parser (domain/status-check-schedule.ts) for the admin API, the configuration and the worker.
  it.each([
    ['a gap, {"1-2":30,"5-":60}', { '1-2': 30, '5-': 60 }, 'attempt 3 is not covered: "1-2" is followed by "5-"'],
    ['a start at 0, {"0-3":10}', { '0-3': 10 }, '"0-3" starts at attempt 0; attempts count from 1'],
    ['no open-ended last range', { '1-3': 30, '4-6': 60 }, 'the last range "4-6" must be open-ended, like "4-"'],
    ['overlapping ranges', { '1-3': 30, '2-': 60 }, '"2-" overlaps the range before it'],
    ['a zero delay', { '1-': 0 }, '"1-" must wait a whole number of seconds from 1 to 86400, got 0'],
    ['no ranges at all', {}, 'at least one range is needed, the last open-ended like "1-"'],
  ])('refuses status_checker_time_rates with %s, on add and on update, naming the field', async (_label, rates, message) => {
    const merchant = await harness.createMerchant();
    const field = 'settings.gateway_settings.status_checker_time_rates';
    const refused = await addGateway(merchant.id, {
      alias: 'acquirer',
      environment: 'production',
      settings: gatewaySettings({}, { status_checker_time_rates: rates }),
    });
    expect(refused).toMatchObject({ status: 422, body: { success: false, errors: [{ code: 'invalid_field', field, message }] } });
    const gatewayId = (await addGateway(merchant.id, { alias: 'acquirer', environment: 'production', settings: gatewaySettings() })).body.gateway.id;
    const update = await admin('PUT', `/merchants/${merchant.id}/gateways/${gatewayId}`, {
      settings: gatewaySettings({}, { status_checker_time_rates: rates }),
    });
    expect(update).toMatchObject({ status: 422, body: { errors: [{ code: 'invalid_field', field, message }] } });
    const [stored] = (await admin('GET', `/merchants/${merchant.id}/gateways`)).body.gateways;
    expect(stored.settings.gateway_settings.status_checker_time_rates).toEqual({ '1-3': 30, '4-': 60 });
  });

  it('accepts processing_method rabbit with an amqp:// or amqps:// rabbit_url and no full_link, masking rabbit_password', async () => {
    const merchant = await harness.createMerchant();
    const rabbit = gatewaySettings(
      {},
      {
        processing_method: 'rabbit',
        full_link: undefined,
        rabbit_url: 'amqps://queue.example/payments',
        rabbit_user: 'payrail',
        rabbit_password: 'rabbit-secret-123456',
      },
    );
    const added = await addGateway(merchant.id, { alias: 'rabbit', environment: 'production', settings: rabbit });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.gateway.settings.gateway_settings).toMatchObject({
      processing_method: 'rabbit',
      rabbit_url: 'amqps://queue.example/payments',
      rabbit_password: '****3456',
    });
  });

  it.each([
    ['without rabbit_url', { rabbit_url: undefined }, 'settings.gateway_settings.rabbit_url'],
    ['with an http:// rabbit_url', { rabbit_url: 'http://queue.example' }, 'settings.gateway_settings.rabbit_url'],
    ['with a rabbit_url without a host', { rabbit_url: 'amqp://' }, 'settings.gateway_settings.rabbit_url'],
    ['with a password in rabbit_url', { rabbit_url: 'amqp://payrail:hunter2@queue.example' }, 'settings.gateway_settings.rabbit_url'],
    ['with a reserved rabbit_queue', { rabbit_url: 'amqp://queue.example', rabbit_queue: 'amq.payments' }, 'settings.gateway_settings.rabbit_queue'],
  ])('refuses processing_method rabbit %s, naming the field', async (_label, gatewayOverrides, field) => {
    const merchant = await harness.createMerchant();
    const rabbit = gatewaySettings({}, { processing_method: 'rabbit', full_link: undefined, ...gatewayOverrides });
    const refused = await addGateway(merchant.id, { alias: 'rabbit', environment: 'production', settings: rabbit });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([expect.objectContaining({ code: 'invalid_field', field })]);
    expect((await admin('GET', `/merchants/${merchant.id}/gateways`)).body.gateways).toEqual([]);
  });

  it('refuses a second gateway with the same alias in one environment with 409, and allows it in the other', async () => {
    const merchant = await harness.createMerchant();
    expect((await addGateway(merchant.id, { alias: 'acquirer', environment: 'production', settings: gatewaySettings() })).status).toBe(200);
    const duplicate = await addGateway(merchant.id, { alias: 'acquirer', environment: 'production', settings: gatewaySettings() });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.errors).toEqual([expect.objectContaining({ code: 'alias_taken' })]);
    expect((await addGateway(merchant.id, { alias: 'acquirer', environment: 'sandbox', settings: gatewaySettings() })).status).toBe(200);
    const otherMerchant = await harness.createMerchant();
    expect((await addGateway(otherMerchant.id, { alias: 'acquirer', environment: 'production', settings: gatewaySettings() })).status).toBe(200);
  });

  it("lists only this merchant's gateways, oldest first, with secrets masked", async () => {
    const merchant = await harness.createMerchant();
    const other = await harness.createMerchant();
    await addGateway(other.id, { alias: 'elsewhere', environment: 'production', settings: gatewaySettings() });
    await addGateway(merchant.id, { alias: 'first', environment: 'production', settings: gatewaySettings() });
    await addGateway(merchant.id, { alias: 'second', environment: 'sandbox', settings: gatewaySettings({ api_key: 'ak_second_0000wxyz' }) });
    const listed = await admin('GET', `/merchants/${merchant.id}/gateways`);
    expect(listed.status).toBe(200);
    expect(listed.body.gateways.map((gateway: { alias: string }) => gateway.alias)).toEqual(['first', 'second']);
    expect(
      listed.body.gateways.map((gateway: { settings: { api_key: string; sign_key: string } }) => [gateway.settings.api_key, gateway.settings.sign_key]),
    ).toEqual([
      [`****${API_KEY.slice(-4)}`, `****${SIGN_KEY.slice(-4)}`],
      ['****wxyz', `****${SIGN_KEY.slice(-4)}`],
    ]);
    expect((await admin('GET', `/merchants/${merchant.id + other.id + 1000}/gateways`)).status).toBe(404);
  });

  it('replaces the settings or renames the alias with PUT', async () => {
    const merchant = await harness.createMerchant();
    const gatewayId = (await addGateway(merchant.id, { alias: 'acquirer', environment: 'production', settings: gatewaySettings() })).body.gateway.id;
    const replaced = await admin('PUT', `/merchants/${merchant.id}/gateways/${gatewayId}`, {
      settings: gatewaySettings({ api_key: 'ak_rotated_key_9876' }, { full_link: 'https://adapter.example/v2' }),
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.gateway).toMatchObject({
      id: gatewayId,
      alias: 'acquirer',
      settings: { api_key: '****9876', gateway_settings: { full_link: 'https://adapter.example/v2' } },
    });
    const renamed = await admin('PUT', `/merchants/${merchant.id}/gateways/${gatewayId}`, { alias: 'acquirer-eu' });
    expect(renamed.body.gateway).toMatchObject({
      alias: 'acquirer-eu',
      settings: { api_key: '****9876', gateway_settings: { full_link: 'https://adapter.example/v2' } },
    });
    const listed = (await admin('GET', `/merchants/${merchant.id}/gateways`)).body.gateways;
    expect(listed).toMatchObject([{ id: gatewayId, alias: 'acquirer-eu', settings: { api_key: '****9876' } }]);
  });

  it.each([
    ['an empty body', {}, 422],
    ['a sign_key of 31 characters', { settings: gatewaySettings({ sign_key: 'k'.repeat(31) }) }, 422],
    ['processing_method rabbit without rabbit_url', { settings: gatewaySettings({}, { processing_method: 'rabbit' }) }, 422],
    ['an unknown field', { alias: 'fine', status: 'disabled' }, 422],
  ])('refuses an update with %s', async (_label, body, status) => {
    const merchant = await harness.createMerchant();
    const gatewayId = (await addGateway(merchant.id, { alias: 'acquirer', environment: 'production', settings: gatewaySettings() })).body.gateway.id;
    expect((await admin('PUT', `/merchants/${merchant.id}/gateways/${gatewayId}`, body)).status).toBe(status);
    expect((await admin('GET', `/merchants/${merchant.id}/gateways`)).body.gateways).toMatchObject([{ alias: 'acquirer', status: 'active' }]);
  });

  it('refuses to rename a gateway to an alias the merchant already uses in that environment with 409', async () => {
    const merchant = await harness.createMerchant();
    await addGateway(merchant.id, { alias: 'first', environment: 'production', settings: gatewaySettings() });
    const secondId = (await addGateway(merchant.id, { alias: 'second', environment: 'production', settings: gatewaySettings() })).body.gateway.id;
    const renamed = await admin('PUT', `/merchants/${merchant.id}/gateways/${secondId}`, { alias: 'first' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.errors).toEqual([expect.objectContaining({ code: 'alias_taken' })]);
  });

  it('disables and enables a gateway; a disabled production gateway is not used for payments', async () => {
    const merchant = await harness.createMerchant();
    const gatewayId = (await addGateway(merchant.id, { alias: 'acquirer', environment: 'production', settings: gatewaySettings() })).body.gateway.id;
    const pay = () =>
      harness.merchantRequest(merchant.productionKey, {
        method: 'POST',
        url: '/api/v1/payments',
        payload: {
          product: 'Order #5',
          amount: 500,
          currency: 'EUR',
          callbackUrl: 'http://127.0.0.1:9/callback',
          card: { pan: '4111111111111111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '123' }, // production declines sandbox test cards
          customer: { email: 'ada@example.com', ip: '198.51.100.1' },
        },
      });
    const disabled = await admin('POST', `/merchants/${merchant.id}/gateways/${gatewayId}/disable`);
    expect(disabled).toMatchObject({ status: 200, body: { gateway: { id: gatewayId, status: 'disabled' } } });
    const refused = await pay();
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual([expect.objectContaining({ code: 'no_gateway' })]);
    const enabled = await admin('POST', `/merchants/${merchant.id}/gateways/${gatewayId}/enable`);
    expect(enabled).toMatchObject({ status: 200, body: { gateway: { id: gatewayId, status: 'active' } } });
    const accepted = await pay(); // the adapter refuses the connection: a system error, so the payment waits
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().payment.status).toBe('pending');
  });

  it('answers 401 to every gateway route without the admin key, or with a wrong one', async () => {
    const merchant = await harness.createMerchant();
    const gatewayId = (await addGateway(merchant.id, { alias: 'acquirer', environment: 'production', settings: gatewaySettings() })).body.gateway.id;
    const routes: ['GET' | 'POST' | 'PUT', string, object?][] = [
      ['POST', `/merchants/${merchant.id}/gateways`, { alias: 'other', environment: 'production', settings: gatewaySettings() }],
      ['GET', `/merchants/${merchant.id}/gateways`],
      ['PUT', `/merchants/${merchant.id}/gateways/${gatewayId}`, { alias: 'renamed' }],
      ['POST', `/merchants/${merchant.id}/gateways/${gatewayId}/disable`],
      ['POST', `/merchants/${merchant.id}/gateways/${gatewayId}/enable`],
    ];
    for (const [method, url, body] of routes) {
      expect((await admin(method, url, body, null)).status).toBe(401);
      expect((await admin(method, url, body, `${harness.adminKey}x`)).status).toBe(401);
      expect((await admin(method, url, body, merchant.productionKey)).status).toBe(401);
    }
    expect((await admin('GET', `/merchants/${merchant.id}/gateways`)).body.gateways).toMatchObject([{ alias: 'acquirer', status: 'active' }]);
  });

  it('answers 404 for an unknown merchant or a gateway of another merchant', async () => {
    const merchant = await harness.createMerchant();
    const other = await harness.createMerchant();
    const gatewayId = (await addGateway(merchant.id, { alias: 'acquirer', environment: 'production', settings: gatewaySettings() })).body.gateway.id;
    const unknownMerchant = merchant.id + other.id + 10_000;
    expect((await addGateway(unknownMerchant, { alias: 'acquirer', environment: 'production', settings: gatewaySettings() })).status).toBe(404);
    expect((await admin('GET', `/merchants/${unknownMerchant}/gateways`)).status).toBe(404);
    for (const [merchantId, id] of [
      [unknownMerchant, gatewayId],
      [other.id, gatewayId],
      [merchant.id, gatewayId + 10_000],
    ] as const) {
      expect((await admin('PUT', `/merchants/${merchantId}/gateways/${id}`, { alias: 'renamed' })).status).toBe(404);
      expect((await admin('POST', `/merchants/${merchantId}/gateways/${id}/disable`)).status).toBe(404);
      expect((await admin('POST', `/merchants/${merchantId}/gateways/${id}/enable`)).status).toBe(404);
    }
    expect((await admin('GET', `/merchants/${merchant.id}/gateways`)).body.gateways).toMatchObject([{ alias: 'acquirer', status: 'active' }]);
  });

  it('never shows api_key, sign_key or rabbit_password in clear in any response', async () => {
    const merchant = await harness.createMerchant();
    const withPassword = gatewaySettings({}, { rabbit_password: RABBIT_PASSWORD });
    const gatewayId = (await addGateway(merchant.id, { alias: 'acquirer', environment: 'production', settings: withPassword })).body.gateway.id;
    await addGateway(merchant.id, { alias: 'acquirer', environment: 'production', settings: withPassword });
    await admin('GET', `/merchants/${merchant.id}/gateways`);
    await admin('PUT', `/merchants/${merchant.id}/gateways/${gatewayId}`, { settings: withPassword });
    await admin('POST', `/merchants/${merchant.id}/gateways/${gatewayId}/disable`);
    await admin('POST', `/merchants/${merchant.id}/gateways/${gatewayId}/enable`);
    expect(responseBodies.length).toBeGreaterThan(6);
    for (const body of responseBodies) {
      expect(body).not.toContain(API_KEY);
      expect(body).not.toContain(SIGN_KEY);
      expect(body).not.toContain(RABBIT_PASSWORD);
    }
    expect(responseBodies.at(-1)).toContain(`****${RABBIT_PASSWORD.slice(-4)}`);
  });
});

describe.each(engines)('payrail gateway commands against a running server on %s', (engine) => {
  let server: ServerHarness;
  let client: AdminClient;
  let settingsDir: string;
  let merchantId: number;

  beforeAll(async () => {
    server = await startServerHarness(engine);
    client = adminClient(server.running.app.payrail.config, server.baseUrl);
    settingsDir = await mkdtemp(join(tmpdir(), 'payrail-gateway-cli-'));
    merchantId = (await server.createMerchant('CLI merchant')).id;
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    if (settingsDir) await rm(settingsDir, { recursive: true, force: true });
  });

  const gateway = async (action: string, options: Partial<GatewayCommandOptions>) => {
    const lines: string[] = [];
    await runGatewayCommand(client, action, { json: false, ...options }, (line) => lines.push(line));
    return lines;
  };
  const gatewayJson = async (action: string, options: Partial<GatewayCommandOptions>) => {
    const lines = await gateway(action, { ...options, json: true });
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]!);
  };

  it('adds, lists, updates, disables and enables a gateway', async () => {
    const merchant = String(merchantId);
    const added = await gatewayJson('add', { merchant, alias: 'acquirer', environment: 'production', settings: JSON.stringify(gatewaySettings()) });
    expect(added).toMatchObject({
      merchant_id: merchantId,
      alias: 'acquirer',
      environment: 'production',
      status: 'active',
      settings: { api_key: `****${API_KEY.slice(-4)}` },
    });
    const id = String(added.id);
    expect(await gateway('list', { merchant })).toEqual([
      expect.stringMatching(new RegExp(`^#${id}\\tactive\\tproduction\\tacquirer\\thttp://127\\.0\\.0\\.1:9/acquirer\\t`)),
    ]);

    const settingsFile = join(settingsDir, 'settings.json');
    await writeFile(settingsFile, JSON.stringify(gatewaySettings({}, { full_link: 'https://adapter.example/v2' })));
    expect(await gatewayJson('update', { merchant, id, settingsFile })).toMatchObject({
      settings: { gateway_settings: { full_link: 'https://adapter.example/v2' } },
    });
    expect(await gatewayJson('update', { merchant, id, alias: 'acquirer-eu' })).toMatchObject({ alias: 'acquirer-eu' });
    expect(await gateway('disable', { merchant, id })).toEqual([
      expect.stringMatching(/\tdisabled\tproduction\tacquirer-eu\thttps:\/\/adapter\.example\/v2\t/),
    ]);
    expect((await gatewayJson('enable', { merchant, id })).status).toBe('active');
    const listed = await gatewayJson('list', { merchant });
    expect(listed).toMatchObject([{ id: added.id, alias: 'acquirer-eu', status: 'active' }]);
    expect(JSON.stringify(listed)).not.toContain(API_KEY);
  });

  it.each([
    ['add without --merchant', 'add', { alias: 'a', environment: 'production', settings: '{}' }, /--merchant/],
    ['add without --alias', 'add', { merchant: '1', environment: 'production', settings: '{}' }, /--alias/],
    ['add with --environment staging', 'add', { merchant: '1', alias: 'a', environment: 'staging', settings: '{}' }, /--environment sandbox\|production/],
    ['add without settings', 'add', { merchant: '1', alias: 'a', environment: 'production' }, /--settings/],
    [
      'add with settings that are not JSON',
      'add',
      { merchant: '1', alias: 'a', environment: 'production', settings: '{api_key:' },
      /--settings is not valid JSON/,
    ],
    ['add with settings that are a JSON array', 'add', { merchant: '1', alias: 'a', environment: 'production', settings: '[]' }, /JSON object/],
    [
      'add with both --settings and --settings-file',
      'add',
      { merchant: '1', alias: 'a', environment: 'production', settings: '{}', settingsFile: '/x' },
      /not both/,
    ],
    [
      'add with a missing --settings-file',
      'add',
      { merchant: '1', alias: 'a', environment: 'production', settingsFile: '/nonexistent/settings.json' },
      /cannot read --settings-file/,
    ],
    ['update without --id', 'update', { merchant: '1', alias: 'b' }, /--id/],
    ['update with nothing to change', 'update', { merchant: '1', id: '1' }, /--settings.*--alias/],
    ['disable with --id abc', 'disable', { merchant: '1', id: 'abc' }, /--id/],
    ['an unknown action', 'remove', { merchant: '1' }, /add \| list \| update \| disable \| enable/],
  ])('refuses %s before calling the server', async (_label, action, options, message) => {
    await expect(gateway(action, options)).rejects.toThrow(CliError);
    await expect(gateway(action, options)).rejects.toThrow(message);
  });

  it('reports what the server refused, with the HTTP status and error code', async () => {
    const merchant = String(merchantId);
    const badKey = JSON.stringify(gatewaySettings({ sign_key: 'short' }));
    await expect(gateway('add', { merchant, alias: 'bad', environment: 'production', settings: badKey })).rejects.toThrow(/HTTP 422: invalid_field/);
    const rabbit = JSON.stringify(gatewaySettings({}, { processing_method: 'rabbit' })); // no rabbit_url
    await expect(gateway('add', { merchant, alias: 'rabbit', environment: 'production', settings: rabbit })).rejects.toThrow(/HTTP 422: invalid_field/);
    await expect(gateway('list', { merchant: '999999' })).rejects.toThrow(/HTTP 404/);
    await expect(gateway('disable', { merchant, id: '999999' })).rejects.toThrow(/HTTP 404/);
  });
});
