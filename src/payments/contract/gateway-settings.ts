import {
  ADAPTER_SETTINGS_FIELDS,
  FINAL_WAITING_S_DEFAULT,
  GATEWAY_SETTINGS_FIELDS,
  METHOD_SETTINGS_FIELDS,
  methodsFieldsOf,
  ProcessingMethodSchema,
  RESPONSE_TIMEOUT_S_DEFAULT,
  type LogKind,
  type PaymentMethod,
} from '@payrail/adapter-kit';
import Type, { type Static } from 'typebox';
import { STATUS_CHECK_DELAY_SECONDS_MAX, TIME_RATE_RANGES_MAX } from '../../platform/lib/status-check-schedule.ts';
import { isSecretName, keyNameOf } from '@payrail/adapter-kit';
import { narrowedObject } from './narrowed-object.ts';

// Keys spec 2.10 does not define are the provider's own (brand_id, client_id, secret, …): they pass through
// to the adapter unchanged, within these bounds (checked by providerSettingsProblem).
const PROVIDER_SETTINGS_KEYS_MAX = 64; // per object: the settings, gateway_settings, any object or list inside
const PROVIDER_SETTINGS_DEPTH_MAX = 4; // objects or lists nested inside one provider key
const PROVIDER_SETTINGS_STRING_CHARS_MAX = 8192;
const PROVIDER_SETTINGS_KEY_CHARS_MAX = 128;
const PROVIDER_SETTINGS_BYTES_MAX = 64 * 1024; // all provider keys of one gateway, as JSON
const withProviderKeys = {
  additionalProperties: Type.Unknown(),
  maxProperties: PROVIDER_SETTINGS_KEYS_MAX,
  propertyNames: { type: 'string', maxLength: PROVIDER_SETTINGS_KEY_CHARS_MAX },
};

// A provider's own keys of a method (params_fields, …) pass through like the top-level ones.
const MethodSettingsSchema = narrowedObject(METHOD_SETTINGS_FIELDS, {}, withProviderKeys);

export type { PaymentMethod };

export function paymentMethodOf(settings: Pick<GatewaySettings, 'payment_method'>): PaymentMethod {
  return settings.payment_method ?? 'card';
}

// spec 2.10: the settings block a gateway is configured with, and that is sent to its adapter: the adapter kit's
// settings schema, narrowed to what Payrail requires. The keys of spec 2.10 are validated here
// (status_checker_time_rates by parseTimeRates, when a gateway is saved); any other key, at the top level, in
// gateway_settings or in one of its methods, is the provider's and is kept as given. api_key is the provider's
// credential (spec 5.5) where it has one: spec 2.10 does not require it.
export const GatewaySettingsSchema = narrowedObject(
  ADAPTER_SETTINGS_FIELDS,
  {
    sign_key: Type.String({
      minLength: 32,
      maxLength: 32,
      description: 'exactly 32 characters: signs callback JWTs (HS512) and encrypts merchant_private_key',
    }),
    gateway_settings: narrowedObject(
      GATEWAY_SETTINGS_FIELDS,
      {
        processing_method: ProcessingMethodSchema,
        full_link: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 })),
        methods: Type.Optional(Type.Object(methodsFieldsOf(MethodSettingsSchema), { additionalProperties: false })),
        status_checker_time_rates: Type.Optional(
          Type.Record(Type.String(), Type.Integer({ maximum: STATUS_CHECK_DELAY_SECONDS_MAX }), {
            maxProperties: TIME_RATE_RANGES_MAX,
            description: 'attempt range ("1-3", the last open like "7-") → seconds to wait; contiguous from 1',
          }),
        ),
      },
      withProviderKeys,
    ),
  },
  withProviderKeys,
);

export type GatewaySettings = Static<typeof GatewaySettingsSchema>;

const METHOD_DEFAULTS = { response_timeout: RESPONSE_TIMEOUT_S_DEFAULT, final_waiting_seconds: FINAL_WAITING_S_DEFAULT, enable_status_checker: true } as const;

export interface ResolvedMethodSettings {
  responseTimeoutS: number;
  finalWaitingS: number;
  statusCheckerEnabled: boolean;
}

export function methodSettingsOf(settings: GatewaySettings, method: LogKind): ResolvedMethodSettings {
  const configured = settings.gateway_settings.methods?.[method] ?? {};
  return {
    responseTimeoutS: configured.response_timeout ?? METHOD_DEFAULTS.response_timeout,
    finalWaitingS: configured.final_waiting_seconds ?? METHOD_DEFAULTS.final_waiting_seconds,
    statusCheckerEnabled: configured.enable_status_checker ?? METHOD_DEFAULTS.enable_status_checker,
  };
}

export interface SettingsProblem {
  field: string; // dotted path, e.g. settings.gateway_settings.brand_id
  message: string;
}

// The first way the provider's own keys break their bounds, or null.
export function providerSettingsProblem(settings: GatewaySettings): SettingsProblem | null {
  const methods = Object.entries(settings.gateway_settings.methods ?? {}).filter(
    ([, method]) => method !== null && typeof method === 'object' && !Array.isArray(method),
  );
  const own = [
    ...providerEntries(settings, GatewaySettingsSchema.properties, 'settings'),
    ...providerEntries(settings.gateway_settings, GatewaySettingsSchema.properties.gateway_settings.properties, 'settings.gateway_settings'),
    ...methods.flatMap(([name, method]) => providerEntries(method, MethodSettingsSchema.properties, `settings.gateway_settings.methods.${name}`)),
  ];
  for (const [field, value] of own) {
    const problem = providerValueProblem(field, value, 0);
    if (problem) return problem;
  }
  const bytes = Buffer.byteLength(JSON.stringify(own), 'utf8');
  if (bytes <= PROVIDER_SETTINGS_BYTES_MAX) return null;
  return { field: 'settings', message: `the keys spec 2.10 does not define must stay within ${PROVIDER_SETTINGS_BYTES_MAX} bytes of JSON, got ${bytes}` };
}

function providerEntries(record: object, knownKeys: object, path: string): [string, unknown][] {
  return Object.entries(record)
    .filter(([key]) => !Object.hasOwn(knownKeys, key))
    .map(([key, value]) => [`${path}.${key}`, value]);
}

function providerValueProblem(field: string, value: unknown, depth: number): SettingsProblem | null {
  if (typeof value === 'string') {
    return value.length > PROVIDER_SETTINGS_STRING_CHARS_MAX ? { field, message: `must be at most ${PROVIDER_SETTINGS_STRING_CHARS_MAX} characters` } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth >= PROVIDER_SETTINGS_DEPTH_MAX) return { field, message: `nests objects or lists more than ${PROVIDER_SETTINGS_DEPTH_MAX} levels deep` };
  const entries = Array.isArray(value) ? value.map((item, index): [string, unknown] => [String(index), item]) : Object.entries(value);
  if (entries.length > PROVIDER_SETTINGS_KEYS_MAX) return { field, message: `must hold at most ${PROVIDER_SETTINGS_KEYS_MAX} entries` };
  for (const [key, inner] of entries) {
    if (key.length > PROVIDER_SETTINGS_KEY_CHARS_MAX) return { field, message: `has a key longer than ${PROVIDER_SETTINGS_KEY_CHARS_MAX} characters` };
    const problem = providerValueProblem(`${field}.${key}`, inner, depth + 1);
    if (problem) return problem;
  }
  return null;
}

// Secret names at any depth are those of the one list (the adapter kit's secret-names.ts); asset files are masked whatever
// their name, since a certificate bundle may carry its private key.
function isSecretSettingName(name: string): boolean {
  return isSecretName(keyNameOf(name));
}

const SECRET_SHOWN_CHARS = 4;
const SECRET_SHOWN_LENGTH_MIN = 12; // shorter secrets are shown as **** alone

// Secrets shown to operators only by their last characters (strings of 12 or more), or not at all.
export function maskedSettings(settings: GatewaySettings): Record<string, unknown> {
  const masked = maskValue(settings, false) as Record<string, unknown>;
  if (settings.assets) masked['assets'] = Object.fromEntries(Object.entries(settings.assets).map(([file, content]) => [file, maskValue(content, true)]));
  return masked;
}

function maskValue(value: unknown, secret: boolean): unknown {
  if (secret) {
    return typeof value === 'string' && value.length >= SECRET_SHOWN_LENGTH_MIN ? `****${value.slice(-SECRET_SHOWN_CHARS)}` : '****';
  }
  if (Array.isArray(value)) return value.map((item) => maskValue(item, false));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, maskValue(inner, isSecretSettingName(name))]));
}
