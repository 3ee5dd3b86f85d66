import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getGatewayWithSettings } from '../../../src/payments/index.ts';
import { auditRowsOf } from '../../support/audit.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { signedInOperators, type OpsClient } from '../../support/ops.ts';

const engines = await testEngines();

const API_KEY = 'ak_live_console_do_not_show_0123';
const SIGN_KEY = 'console_sign_key_never_shown_012'; // exactly 32 characters
const CLIENT_SECRET = 'provider-client-secret-never-shown';
const SECRETS = [API_KEY, SIGN_KEY, CLIENT_SECRET];

type FormBody = Record<string, string | string[]>;

// A new gateway's form as an operator fills it in: every kind of field (secrets, booleans, a select, numbers, the
// schedule's rows, a provider's own keys) and routing rules.
function newGatewayForm(alias: string): FormBody {
  return {
    alias,
    environment: 'production',
    api_key: API_KEY,
    sign_key: SIGN_KEY,
    sandbox: 'false',
    host2host: 'true',
    validate_signature: 'true',
    enable_routing: 'true',
    'gateway_settings.processing_method': 'http_requests',
    'gateway_settings.full_link': 'http://127.0.0.1:9/acquirer', // nothing listens there: a call is refused at once
    'gateway_settings.methods.pay.response_timeout': '5',
    'gateway_settings.status_checker_time_rates.key[]': ['1-3', '4-'],
    'gateway_settings.status_checker_time_rates.value[]': ['30', '60'],
    '*.key[]': ['client_id', 'client_secret'],
    '*.value[]': ['acme-17', CLIENT_SECRET],
    'routing.currencies': 'eur, gbp',
    'routing.weight': '300',
  };
}

// What a browser sends for the gateway form as the page shows it: every input, select and textarea of that form,
// checkboxes only when checked.
function formOfPage(page: string, action: string): FormBody {
  const start = page.indexOf(`<form method="post" action="${action}" class="stack gateway-form">`);
  const form = page.slice(start, page.indexOf('</form>', start));
  const unescapedHtml = (text: string) =>
    text.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
  const attributes = (tag: string) => Object.fromEntries([...tag.matchAll(/([a-z-]+)="([^"]*)"/g)].map((match) => [match[1], unescapedHtml(match[2] ?? '')]));
  const body: FormBody = {};
  const add = (name: string | undefined, value: string) => {
    if (name === undefined || name === '_csrf') return; // the client sends its own
    const before = body[name];
    body[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  };
  for (const [tag] of form.matchAll(/<input\b[^>]*>/g)) {
    const input = attributes(tag);
    if (input['type'] === 'checkbox' && !/\schecked\b/.test(tag)) continue;
    add(input['name'], input['value'] ?? '');
  }
  for (const match of form.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
    const selected = /<option value="([^"]*)" selected>/.exec(match[2] ?? '')?.[1] ?? /<option value="([^"]*)"/.exec(match[2] ?? '')?.[1] ?? '';
    add(attributes(match[1] ?? '')['name'], unescapedHtml(selected));
  }
  for (const match of form.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) add(attributes(match[1] ?? '')['name'], unescapedHtml(match[2] ?? ''));
  return body;
}

describe.each(engines)('operator console gateways on %s', (engine) => {
  let harness: Harness;
  let admin: OpsClient;
  let support: OpsClient;
  let finance: OpsClient;
  let merchant: TestMerchant;
  let gatewayId: number;
  beforeAll(async () => {
    harness = await startHarness(engine);
    ({ admin, support, finance } = await signedInOperators(harness));
    merchant = await harness.createMerchant(`Gateway shop ${engine}`);
    const created = await admin.post(`/ops/merchants/${merchant.id}/gateways`, newGatewayForm('acquirer-eu'), `/ops/merchants/${merchant.id}/gateways/new`);
    expect(created.statusCode, created.body.slice(0, 2000)).toBe(303);
    gatewayId = Number(/\/ops\/gateways\/(\d+)\?done=created/.exec(created.headers.location as string)?.[1]);
  });
  afterAll(async () => harness.close());

  const stored = async () => getGatewayWithSettings(harness.app.payrail, gatewayId);
  const auditOf = (action: string) => auditRowsOf(harness.database, { subjectType: 'gateway', subjectId: gatewayId, action });
  const secretsInAudit = async () => {
    const rows = await harness.database.db.execute<{ text: string }>(
      sql`select coalesce(before::text, '') || coalesce(after::text, '') as text from audit_events`,
    );
    return rows.rows.filter((row) => SECRETS.some((secret) => row.text.includes(secret)));
  };

  it.each([
    ['/ops/merchants/{merchant}/gateways/new', 200, 403, 403],
    ['/ops/gateways/{gateway}', 200, 200, 200],
    ['/ops/gateways/{gateway}/disable', 200, 403, 403],
  ])('answers %s with %i to admin, %i to support, %i to finance', async (path, adminStatus, supportStatus, financeStatus) => {
    const url = path.replace('{merchant}', String(merchant.id)).replace('{gateway}', String(gatewayId));
    expect((await admin.get(url)).statusCode).toBe(adminStatus);
    expect((await support.get(url)).statusCode).toBe(supportStatus);
    expect((await finance.get(url)).statusCode).toBe(financeStatus);
  });

  it('stores what the form was given, through the admin API’s flow, audited once with its settings redacted', async () => {
    const { gateway, settings } = await stored();
    expect(gateway).toMatchObject({ alias: 'acquirer-eu', environment: 'production', status: 'active', routing: { currencies: ['EUR', 'GBP'], weight: 300 } });
    expect(settings).toMatchObject({
      api_key: API_KEY,
      sign_key: SIGN_KEY,
      sandbox: false,
      host2host: true,
      enable_routing: true,
      client_id: 'acme-17',
      client_secret: CLIENT_SECRET,
      gateway_settings: { processing_method: 'http_requests', methods: { pay: { response_timeout: 5 } }, status_checker_time_rates: { '1-3': 30, '4-': 60 } },
    });
    const events = await auditOf('gateway.create');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: `operator:${admin.operatorId}`, after: { alias: 'acquirer-eu', settings_sealed: '[redacted]' } });
    expect(await secretsInAudit()).toEqual([]);
  });

  it('shows the settings to every reader with secrets masked; the form and its actions to gateways.write only', async () => {
    const adminPage = (await admin.get(`/ops/gateways/${gatewayId}`)).body;
    expect(adminPage).toContain('class="stack gateway-form"');
    expect(adminPage).toContain('Check adapter');
    expect(adminPage).toContain('name="gateway_settings.status_checker_time_rates.key[]" value="1-3"');
    const supportPage = (await support.get(`/ops/gateways/${gatewayId}`)).body;
    expect(supportPage).not.toContain('gateway-form');
    expect(supportPage).not.toContain('Check adapter');
    expect(supportPage).toContain('acme-17');
    for (const page of [adminPage, supportPage, (await finance.get(`/ops/gateways/${gatewayId}`)).body]) {
      for (const secret of SECRETS) expect(page).not.toContain(secret);
    }
    expect((await admin.get(`/ops/merchants/${merchant.id}`)).body).toContain(`href="/ops/gateways/${gatewayId}"`);
  });

  it('keeps every secret left blank when the form is saved as shown with one change, audited once', async () => {
    const form = formOfPage((await admin.get(`/ops/gateways/${gatewayId}`)).body, `/ops/gateways/${gatewayId}`);
    expect(form['api_key']).toBe('');
    expect(form['sign_key']).toBe('');
    const saved = await admin.post(`/ops/gateways/${gatewayId}`, { ...form, 'gateway_settings.full_link': 'http://127.0.0.1:9/acquirer/v2' });
    expect(saved.statusCode, saved.body.slice(0, 2000)).toBe(303);
    const { gateway, settings } = await stored();
    expect(settings).toMatchObject({ api_key: API_KEY, sign_key: SIGN_KEY, client_secret: CLIENT_SECRET, client_id: 'acme-17' });
    expect(settings.gateway_settings).toMatchObject({ full_link: 'http://127.0.0.1:9/acquirer/v2', status_checker_time_rates: { '1-3': 30, '4-': 60 } });
    expect(gateway.routing).toEqual({ currencies: ['EUR', 'GBP'], weight: 300 });
    const events = await auditOf('gateway.update');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: `operator:${admin.operatorId}`,
      before: { settings_sealed: '[redacted]' },
      after: { settings_sealed: '[redacted]' },
    });
    expect(await secretsInAudit()).toEqual([]);
  });

  it('refuses a schedule the API refuses, and a taken alias, naming the field and changing nothing', async () => {
    const before = await stored();
    const form = formOfPage((await admin.get(`/ops/gateways/${gatewayId}`)).body, `/ops/gateways/${gatewayId}`);
    const gap = await admin.post(`/ops/gateways/${gatewayId}`, {
      ...form,
      api_key: 'ak_typed_in_a_refused_form_9876',
      'gateway_settings.status_checker_time_rates.key[]': ['1-3', '5-'],
      'gateway_settings.status_checker_time_rates.value[]': ['30', '60'],
    });
    expect(gap.statusCode).toBe(400);
    expect(gap.body).toContain('gateway_settings.status_checker_time_rates');
    expect(gap.body).not.toContain('ak_typed_in_a_refused_form_9876');
    const other = await admin.post(`/ops/merchants/${merchant.id}/gateways`, newGatewayForm('acquirer-uk'));
    expect(other.statusCode).toBe(303);
    const taken = await admin.post(`/ops/gateways/${gatewayId}`, { ...form, alias: 'acquirer-uk' });
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain('already has a production gateway named acquirer-uk');
    const badAlias = await admin.post(`/ops/gateways/${gatewayId}`, { ...form, alias: 'select' });
    expect(badAlias.statusCode).toBe(400);
    expect(await stored()).toEqual(before);
    expect(await auditOf('gateway.update')).toHaveLength(1); // the save of the test before, no more
  });

  it('disables after a confirmation and enables again, each audited once', async () => {
    expect((await admin.get(`/ops/gateways/${gatewayId}/disable`)).body).toContain('Disable the gateway');
    expect((await admin.post(`/ops/gateways/${gatewayId}/disable`, {})).statusCode).toBe(303);
    expect((await stored()).gateway.status).toBe('disabled');
    expect((await admin.post(`/ops/gateways/${gatewayId}/enable`, {})).statusCode).toBe(303);
    expect((await stored()).gateway.status).toBe('active');
    const actor = `operator:${admin.operatorId}`;
    expect(await auditOf('gateway.disable')).toMatchObject([{ actor, before: { status: 'active' }, after: { status: 'disabled' } }]);
    expect(await auditOf('gateway.enable')).toMatchObject([{ actor, before: { status: 'disabled' }, after: { status: 'active' } }]);
  });

  it('checks the adapter: the report per check on the answer page, one audit event with the tally', async () => {
    const checked = await admin.post(`/ops/gateways/${gatewayId}/check`, {});
    expect(checked.statusCode).toBe(200);
    expect(checked.body).toMatch(/\d+ passed, \d+ failed, \d+ unsupported/);
    expect(checked.body).toContain('status-fail');
    for (const secret of SECRETS) expect(checked.body).not.toContain(secret);
    const events = await auditOf('gateway.check_adapter');
    expect(events).toHaveLength(1);
    const tally = events[0]?.after as { passed: number; failed: number; unsupported: number };
    expect(events[0]?.actor).toBe(`operator:${admin.operatorId}`);
    expect(tally.failed).toBeGreaterThan(0);
    expect(checked.body).toContain(`${tally.passed} passed, ${tally.failed} failed, ${tally.unsupported} unsupported`);
  });

  it('refuses every gateway action to support and finance as a forged POST, changing nothing', async () => {
    const before = await stored();
    const form = formOfPage((await admin.get(`/ops/gateways/${gatewayId}`)).body, `/ops/gateways/${gatewayId}`);
    for (const forger of [support, finance]) {
      for (const [path, body] of [
        [`/ops/merchants/${merchant.id}/gateways`, newGatewayForm('forged')],
        [`/ops/gateways/${gatewayId}`, { ...form, api_key: 'forged-api-key-000000' }],
        [`/ops/gateways/${gatewayId}/disable`, {}],
        [`/ops/gateways/${gatewayId}/check`, {}],
      ] as const) {
        expect((await forger.post(path, body)).statusCode, `${forger.role} ${path}`).toBe(403);
      }
    }
    expect(await stored()).toEqual(before);
    const forgedEvents = await harness.database.db.execute(
      sql`select id from audit_events where actor in (${`operator:${support.operatorId}`}, ${`operator:${finance.operatorId}`}) and action <> 'operator.sign_in'`,
    );
    expect(forgedEvents.rows).toEqual([]);
  });
});
