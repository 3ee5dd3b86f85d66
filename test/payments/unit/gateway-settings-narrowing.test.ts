import { ADAPTER_SETTINGS_FIELDS, AdapterSettingsSchema, GATEWAY_SETTINGS_FIELDS } from '@payrail/adapter-kit';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { GatewaySettingsSchema } from '../../../src/payments/contract/gateway-settings.ts';

// Payrail's gateway settings are the adapter kit's settings narrowed, never a copy: the same keys in the same order,
// and nothing Payrail accepts that the kit would refuse (so every adapter built on the kit takes what Payrail sends).

const payrail = Compile(GatewaySettingsSchema);
const kit = Compile(AdapterSettingsSchema);
const SIGN_KEY = 'k'.repeat(32);

const accepted = [
  { sign_key: SIGN_KEY, gateway_settings: { processing_method: 'http_requests', full_link: 'https://adapter.test/acme' } },
  {
    api_key: 'ak',
    sign_key: SIGN_KEY,
    sandbox: true,
    host2host: true,
    payment_method: 'bank_account',
    gateway_settings: {
      processing_method: 'rabbit',
      rabbit_url: 'amqp://broker',
      rabbit_user: 'u',
      rabbit_password: 'p',
      brand_id: 'provider key',
      methods: { pay: { response_timeout: 120, final_waiting_seconds: 0, params_fields: ['a'] }, callback: {}, custom_requisite_fields: ['iban'] },
      status_checker_time_rates: { '1-3': 10, '4-': 60 },
    },
    assets: { 'client.pem': 'QUJD' },
    validate_signature: true,
    custom_host: 'pay.example',
    enable_update_amount: true,
    client_id: 'provider key',
  },
];

describe("the gateway settings narrow the kit's settings", () => {
  it("has the kit's keys in the kit's order", () => {
    expect(Object.keys(GatewaySettingsSchema.properties)).toEqual(Object.keys(ADAPTER_SETTINGS_FIELDS));
    expect(Object.keys(GatewaySettingsSchema.properties.gateway_settings.properties)).toEqual(Object.keys(GATEWAY_SETTINGS_FIELDS));
  });

  it.each(accepted.map((settings, index) => [index, settings]))('accepts settings %i, and so does the kit', (_index, settings) => {
    expect(payrail.Check(settings)).toBe(true);
    expect(kit.Check(settings)).toBe(true);
  });

  it.each([
    ['a sign_key of other than 32 characters', { sign_key: 'short', gateway_settings: { processing_method: 'http_requests' } }],
    ['no gateway_settings', { sign_key: SIGN_KEY }],
    ['no processing_method', { sign_key: SIGN_KEY, gateway_settings: {} }],
    ['a full_link that is not http(s)', { sign_key: SIGN_KEY, gateway_settings: { processing_method: 'http_requests', full_link: 'ftp://adapter.test' } }],
    ['a method the kit does not name', { sign_key: SIGN_KEY, gateway_settings: { processing_method: 'http_requests', methods: { capture: {} } } }],
  ])('refuses what only Payrail requires: %s', (_name, settings) => {
    expect(payrail.Check(settings)).toBe(false);
  });

  it.each([
    ['a response_timeout past 120 s', { response_timeout: 121 }],
    ['a fractional response_timeout', { response_timeout: 1.5 }],
    ['a final_waiting_seconds past a day', { final_waiting_seconds: 86_401 }],
  ])('refuses, with the kit, %s', (_name, pay) => {
    const settings = { sign_key: SIGN_KEY, gateway_settings: { processing_method: 'http_requests', methods: { pay } } };
    expect(payrail.Check(settings)).toBe(false);
    expect(kit.Check(settings)).toBe(false);
  });
});
