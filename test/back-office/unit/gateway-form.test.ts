import { ADAPTER_METHODS, isSecretName, keyNameOf, LOG_KINDS } from '@payrail/adapter-kit';
import { describe, expect, it } from 'vitest';
import {
  formValuesOf,
  GATEWAY_SECRET_FIELDS,
  gatewayFormFields,
  SECRET_SET_TEXT,
  settingsOfForm,
  WHOLE_FORM,
  type GatewayFormBody,
  type GatewayFormField,
  type GatewayFormValues,
} from '../../../src/back-office/domain/gateway-form.ts';
import { GatewaySettingsSchema, readGatewaySettings, type GatewaySettings } from '../../../src/payments/index.ts';
import { parseTimeRates, TimeRatesError } from '../../../src/platform/lib/status-check-schedule.ts';

// The operator console's gateway form over the real settings schema (spec 2.10): every field, secrets write-only,
// and a submitted form held to the admin API's own check.

const fields = gatewayFormFields(GatewaySettingsSchema);
const fieldNamed = (name: string): GatewayFormField => {
  const field = fields.find((candidate) => candidate.name === name);
  if (field === undefined) throw new Error(`no field ${name}`);
  return field;
};

const SECRETS = {
  api_key: 'ak_live_9f8e7d6c5b4a3f2e1d0c',
  sign_key: 'f3b9c1d7e5a24b6c8d0e2f4a6b8c0d2e',
  rabbit_password: 'rabbit-pass-7731',
  client_secret: 'provider-client-secret-5521',
  webhook_token: 'whk-token-0042-xyz',
  private_key: 'pk-method-level-8812',
  asset: 'UEtDUzEyLWNvbnRhaW5lcg==',
};

// Stored settings of every kind of field, as the admin API would store them.
const STORED = storable({
  api_key: SECRETS.api_key,
  sign_key: SECRETS.sign_key,
  sandbox: false,
  host2host: true,
  payment_method: 'card',
  validate_signature: true,
  enable_routing: false,
  client_secret: SECRETS.client_secret,
  client_id: 'acme-client-17',
  assets: { 'provider.p12': SECRETS.asset },
  gateway_settings: {
    processing_method: 'http_requests',
    full_link: 'https://adapter.example.com/payrail',
    rabbit_password: SECRETS.rabbit_password,
    brand_id: 'brand-1042',
    retry_count: 3,
    endpoints: { token: 'https://acme.example/token', regions: ['eu', 'us'] },
    webhook_token: SECRETS.webhook_token,
    methods: {
      pay: { response_timeout: 20, final_waiting_seconds: 30, enable_status_checker: false, params_fields: ['iban', 'bic'], private_key: SECRETS.private_key },
      status: { response_timeout: 10 },
      custom_requisite_fields: ['iban', 'bic'],
    },
    status_checker_time_rates: { '1-3': 30, '4-': 60 },
  },
});

function storable(candidate: Record<string, unknown>): GatewaySettings {
  const reading = readGatewaySettings(candidate);
  if (!reading.ok) throw new Error(`the admin API would refuse the fixture: ${JSON.stringify(reading.problems)}`);
  return reading.settings;
}

// The form as a browser submits it, shown values sent back unchanged (one row: a string, as @fastify/formbody gives).
function bodyOf(shown: GatewayFormValues, changes: Record<string, string | string[] | undefined> = {}): GatewayFormBody {
  const body: Record<string, string | string[]> = { ...shown.values };
  for (const [name, rows] of Object.entries(shown.rows)) {
    if (rows.length === 0) continue;
    const { keyInput, valueInput } = fieldNamed(name).rows!;
    body[keyInput] = rows.length === 1 ? rows[0]!.key : rows.map((row) => row.key);
    body[valueInput] = rows.length === 1 ? rows[0]!.value : rows.map((row) => row.value);
  }
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete body[name];
    else body[name] = value;
  }
  return body;
}

// Every leaf of the schema's properties, as a dotted path (an object with properties is no leaf).
function schemaLeaves(schema: object, path: string[] = []): string[] {
  const properties = 'properties' in schema ? (schema.properties as Record<string, object>) : undefined;
  if (properties === undefined) return [path.join('.')];
  return Object.entries(properties).flatMap(([key, inner]) => schemaLeaves(inner, [...path, key]));
}

describe('the gateway form has every field of the settings schema', () => {
  it.each(schemaLeaves(GatewaySettingsSchema))('%s', (name) => {
    expect(fields.map((field) => field.name)).toContain(name);
  });

  it('has each method setting spec 2.10 names, for every method', () => {
    for (const method of LOG_KINDS) {
      for (const setting of ['response_timeout', 'final_waiting_seconds', 'enable_status_checker']) {
        expect(fields.map((field) => field.name)).toContain(`gateway_settings.methods.${method}.${setting}`);
      }
    }
    expect(LOG_KINDS).toEqual(expect.arrayContaining([...ADAPTER_METHODS, 'callback']));
  });

  it.each([
    ['sign_key', { kind: 'secret', required: true, minLength: 32, maxLength: 32 }],
    ['api_key', { kind: 'secret', required: false, maxLength: 1024 }],
    ['sandbox', { kind: 'boolean', required: false }],
    ['payment_method', { kind: 'select', options: ['card', 'bank_account', 'redirect'] }],
    ['gateway_settings.processing_method', { kind: 'select', required: true, options: ['http_requests', 'rabbit'] }],
    ['gateway_settings.full_link', { kind: 'url', required: false, pattern: '^https?://', maxLength: 2048 }],
    ['gateway_settings.rabbit_url', { kind: 'url' }],
    ['gateway_settings.rabbit_user', { kind: 'text', maxLength: 255 }],
    ['gateway_settings.rabbit_password', { kind: 'secret', maxLength: 255 }],
    ['gateway_settings.methods.pay.response_timeout', { kind: 'integer', min: 1, max: 120, section: 'gateway_settings.methods.pay' }],
    ['gateway_settings.methods.refund.final_waiting_seconds', { kind: 'integer', min: 0, max: 86_400 }],
    ['gateway_settings.methods.custom_requisite_fields', { kind: 'text', list: true, maxItems: 50, minLength: 1, maxLength: 64 }],
    ['gateway_settings.status_checker_time_rates', { kind: 'keyvalue', max: 86_400, maxItems: 20, rows: expect.objectContaining({ valueKind: 'integer' }) }],
    ['assets', { kind: 'keyvalue', rows: expect.objectContaining({ secretValues: 'all', keyInput: 'assets.key[]', valueInput: 'assets.value[]' }) }],
    ['*', { kind: 'keyvalue', section: '', rows: expect.objectContaining({ valueKind: 'any', keyMaxLength: 128 }) }],
    ['gateway_settings.*', { kind: 'keyvalue', maxItems: 64, rows: expect.objectContaining({ keyInput: 'gateway_settings.*.key[]' }) }],
    ['gateway_settings.methods.pay.*', { kind: 'keyvalue', section: 'gateway_settings.methods.pay' }],
  ])('describes %s from the schema', (name, expected) => {
    expect(fieldNamed(name)).toMatchObject(expected);
  });

  it('lists as secret exactly the fields the adapter kit names secret (so the form hides what the API masks)', () => {
    const byName = fields.filter((field) => !field.name.endsWith('*') && isSecretName(keyNameOf(field.name.split('.').at(-1)!)));
    expect(byName.map((field) => field.name).sort()).toEqual([...GATEWAY_SECRET_FIELDS].sort());
  });
});

describe('what the gateway form shows', () => {
  const shown = formValuesOf(fields, STORED);

  it.each(Object.entries(SECRETS))('never echoes a secret: %s', (_name, secret) => {
    expect(JSON.stringify(shown)).not.toContain(secret);
  });

  it.each([
    ['api_key', SECRET_SET_TEXT],
    ['sign_key', SECRET_SET_TEXT],
    ['gateway_settings.rabbit_password', SECRET_SET_TEXT],
    ['gateway_settings.rabbit_user', ''],
    ['host2host', 'true'],
    ['sandbox', 'false'],
    ['enable_update_amount', ''],
    ['gateway_settings.methods.pay.response_timeout', '20'],
    ['gateway_settings.methods.custom_requisite_fields', 'iban, bic'],
  ])('shows %s as %j', (name, text) => {
    expect(shown.values[name]).toBe(text);
  });

  it('shows a secret as not set on a new gateway', () => {
    expect(formValuesOf(fields, null).values['sign_key']).toBe('');
  });

  it('shows provider keys and records as rows, secret values masked', () => {
    expect(shown.rows['gateway_settings.status_checker_time_rates']).toEqual([
      { key: '1-3', value: '30', secret: false },
      { key: '4-', value: '60', secret: false },
    ]);
    expect(shown.rows['*']).toEqual([
      { key: 'client_secret', value: SECRET_SET_TEXT, secret: true },
      { key: 'client_id', value: 'acme-client-17', secret: false },
    ]);
    expect(shown.rows['assets']).toEqual([{ key: 'provider.p12', value: SECRET_SET_TEXT, secret: true }]);
    expect(shown.rows['gateway_settings.methods.pay.*']).toEqual([
      { key: 'params_fields', value: '["iban","bic"]', secret: false },
      { key: 'private_key', value: SECRET_SET_TEXT, secret: true },
    ]);
  });
});

describe('the settings of a submitted gateway form', () => {
  const shown = formValuesOf(fields, STORED);
  const submit = (changes: Record<string, string | string[] | undefined>, current: GatewaySettings | null = STORED) =>
    settingsOfForm(fields, bodyOf(shown, changes), current);

  it('round-trips every value, key/value rows and provider JSON included', () => {
    expect(submit({})).toEqual({ ok: true, settings: STORED });
  });

  it.each([
    ['blank', ''],
    ['the mask sent back', SECRET_SET_TEXT],
    ['left out', undefined],
  ])('keeps a secret sent %s', (_case, text) => {
    const outcome = submit({ sign_key: text, api_key: text, 'gateway_settings.rabbit_password': text, '*.value[]': [text ?? '', 'acme-client-17'] });
    expect(outcome.ok && outcome.settings).toMatchObject({
      sign_key: SECRETS.sign_key,
      api_key: SECRETS.api_key,
      client_secret: SECRETS.client_secret,
      gateway_settings: { rabbit_password: SECRETS.rabbit_password },
    });
  });

  it('replaces a secret typed anew, and removes one whose clear box is ticked', () => {
    const outcome = submit({ sign_key: 'n'.repeat(32), 'api_key.clear': 'on' });
    expect(outcome.ok && outcome.settings.sign_key).toBe('n'.repeat(32));
    expect(outcome.ok && 'api_key' in outcome.settings).toBe(false);
  });

  it('converts numbers and booleans; a repeated checkbox counts its last value', () => {
    const outcome = submit({ 'gateway_settings.methods.status.response_timeout': ' 45 ', sandbox: ['false', 'on'], host2host: 'false' });
    expect(outcome.ok && outcome.settings).toMatchObject({
      sandbox: true,
      host2host: false,
      gateway_settings: { methods: { status: { response_timeout: 45 } } },
    });
  });

  it('takes a new provider row as text, or as JSON when it is an object or a list', () => {
    const outcome = submit({
      'gateway_settings.*.key[]': ['brand_id', 'retry_count', 'endpoints', 'webhook_token', 'merchant_code', 'limits'],
      'gateway_settings.*.value[]': ['b-2', '4', '{"token":"x"}', '', '0099', '{"max": 5}'],
    });
    expect(outcome.ok && outcome.settings.gateway_settings).toMatchObject({
      brand_id: 'b-2',
      retry_count: 4,
      endpoints: { token: 'x' },
      webhook_token: SECRETS.webhook_token,
      merchant_code: '0099',
      limits: { max: 5 },
    });
  });

  it.each([
    [{ '1-3': '30' }, 'must be open-ended'],
    [{ '2-': '30' }, 'attempt 1 is not covered'],
    [{ '1-3': '30', '3-': '60' }, 'overlaps'],
    [{ '1-': '0' }, 'whole number of seconds'],
  ])('refuses the schedule %j as the API does', (rates, meaning) => {
    const outcome = submit({
      'gateway_settings.status_checker_time_rates.key[]': Object.keys(rates),
      'gateway_settings.status_checker_time_rates.value[]': Object.values(rates),
    });
    const apiMessage = timeRatesError(Object.fromEntries(Object.entries(rates).map(([range, seconds]) => [range, Number(seconds)])));
    expect(apiMessage).toContain(meaning);
    expect(outcome).toMatchObject({ ok: false, errors: { 'gateway_settings.status_checker_time_rates': [apiMessage] } });
  });

  it.each([
    [
      'a schedule of text',
      { 'gateway_settings.status_checker_time_rates.value[]': ['30', 'soon'] },
      'gateway_settings.status_checker_time_rates',
      '"4-": must be integer',
    ],
    ['a timeout past 120 s', { 'gateway_settings.methods.pay.response_timeout': '121' }, 'gateway_settings.methods.pay.response_timeout', 'must be <= 120'],
    ['a short sign_key', { sign_key: 'short' }, 'sign_key', 'must NOT have fewer than 32 characters'],
    ['http_requests without full_link', { 'gateway_settings.full_link': '' }, 'gateway_settings.full_link', 'is required for processing_method http_requests'],
    ['a provider key too long', { '*.value[]': ['', 'x'.repeat(8193)] }, '*', '"client_id": must be at most 8192 characters'],
    [
      'a row without a key',
      { 'gateway_settings.*.key[]': ['', 'retry_count'], 'gateway_settings.*.value[]': ['orphan', '3'] },
      'gateway_settings.*',
      'row 1: a value needs a key',
    ],
    [
      'a row naming a field',
      { 'gateway_settings.*.key[]': 'full_link', 'gateway_settings.*.value[]': 'https://x.example' },
      'gateway_settings.*',
      '"full_link" is a field of its own, not a provider key',
    ],
    ['a key twice', { 'assets.key[]': ['a.p12', 'a.p12'], 'assets.value[]': ['QUJD', 'QUJD'] }, 'assets', '"a.p12" is given twice'],
    [
      'a prototype key',
      { '*.key[]': ['client_secret', '__proto__'], '*.value[]': ['', '{"polluted": true}'] },
      '*',
      '"__proto__" is a key a JSON body may not hold',
    ],
    [
      'a key holding one in a JSON value',
      { 'gateway_settings.*.key[]': 'limits', 'gateway_settings.*.value[]': '{"__proto__": {"x": 1}}' },
      'gateway_settings.*',
      '"limits.__proto__": is a key a JSON body may not hold (prototype poisoning)',
    ],
    ['a NUL in a value', { 'gateway_settings.rabbit_user': 'pay\u0000rail' }, 'gateway_settings.rabbit_user', 'must not contain the NUL character (U+0000)'],
    ['a new secret row left blank', { 'assets.key[]': 'b.p12', 'assets.value[]': '' }, 'assets', '"b.p12": needs a value'],
  ])('refuses %s, on its field', (_case, changes, field, message) => {
    expect(submit(changes)).toMatchObject({ ok: false, errors: { [field]: [message] } });
  });

  it('asks for the required fields of a new gateway, and keeps what was typed but no secret', () => {
    const outcome = settingsOfForm(fields, { 'gateway_settings.rabbit_user': 'payrail', api_key: 'typed-secret-value' }, null);
    expect(outcome).toMatchObject({
      ok: false,
      errors: {
        sign_key: ["must have required property 'sign_key'"],
        'gateway_settings.processing_method': ["must have required property 'processing_method'"],
      },
    });
    expect(outcome.ok || outcome.values.values).toMatchObject({ 'gateway_settings.rabbit_user': 'payrail', api_key: '' });
    expect(Object.keys(outcome.ok ? {} : outcome.errors)).not.toContain(WHOLE_FORM);
  });
});

function timeRatesError(rates: Record<string, number>): string {
  try {
    parseTimeRates(rates);
  } catch (error) {
    if (error instanceof TimeRatesError) return error.message;
  }
  throw new Error('the schedule was accepted');
}
