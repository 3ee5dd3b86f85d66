import Type, { type Static, type TOptional, type TSchema } from 'typebox';
import { literalUnion, URL_LENGTH_MAX } from './wire-fields.ts';

// spec 2.10: the settings block every adapter request carries. An adapter reads what it needs; every key is
// optional here (Payrail sends them all, but an adapter must not refuse a call over a key it never reads), and
// keys the spec does not define are the provider's own (brand_id, client_id, …): they pass through.

export const ADAPTER_METHODS = [
  'pay',
  'payout',
  'status',
  'refund',
  'confirm_request',
  'decline_request',
  'confirm_secure_code',
  'resend_otp',
  'next_payment_step',
] as const;
export type AdapterMethod = (typeof ADAPTER_METHODS)[number];

// spec 2.9 log kinds: every method, plus the provider's own callbacks (spec 2.10 lists callback after status).
const [PAY, PAYOUT, STATUS, ...LATER_METHODS] = ADAPTER_METHODS;
export const LOG_KINDS = [PAY, PAYOUT, STATUS, 'callback', ...LATER_METHODS] as const;
export type LogKind = (typeof LOG_KINDS)[number];

// The bounds below are the contract's, one definition: Payrail validates a gateway's settings with them (narrowed
// where it must: its own schema adds which keys are required and bounds the provider's keys) before it sends them.
export const RESPONSE_TIMEOUT_S_DEFAULT = 15;
export const RESPONSE_TIMEOUT_S_MAX = 120;
export const FINAL_WAITING_S_DEFAULT = 15;
export const FINAL_WAITING_S_MAX = 86_400;

export const METHOD_SETTINGS_FIELDS = {
  response_timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: RESPONSE_TIMEOUT_S_MAX, description: 'seconds; default 15' })),
  final_waiting_seconds: Type.Optional(
    Type.Integer({ minimum: 0, maximum: FINAL_WAITING_S_MAX, description: 'seconds before the first status check; default 15' }),
  ),
  enable_status_checker: Type.Optional(Type.Boolean({ description: 'default true' })),
};
export const MethodSettingsSchema = Type.Object(METHOD_SETTINGS_FIELDS);
export type MethodSettings = Static<typeof MethodSettingsSchema>;

// methods: one entry per log kind, each of the given method settings schema, and the requisites' own keys.
export function methodsFieldsOf<Method extends TSchema>(methodSchema: Method) {
  const entries = Object.fromEntries(LOG_KINDS.map((kind) => [kind, Type.Optional(methodSchema)]));
  return {
    ...(entries as Record<LogKind, TOptional<Method>>),
    custom_requisite_fields: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50 })),
  };
}

// What the gateway takes from the customer: only a card gateway is ever sent card data.
export const PAYMENT_METHODS = ['card', 'bank_account', 'redirect'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const ProcessingMethodSchema = Type.Union([Type.Literal('http_requests'), Type.Literal('rabbit')]);
// full_link: the full adapter URL (http_requests); rabbit_*: the broker (rabbit).
export const GATEWAY_SETTINGS_FIELDS = {
  processing_method: Type.Optional(ProcessingMethodSchema),
  full_link: Type.Optional(Type.String({ description: 'full adapter URL (http_requests)' })),
  rabbit_url: Type.Optional(Type.String({ maxLength: URL_LENGTH_MAX })),
  rabbit_user: Type.Optional(Type.String({ maxLength: 255 })),
  rabbit_password: Type.Optional(Type.String({ maxLength: 255 })),
  methods: Type.Optional(Type.Object(methodsFieldsOf(MethodSettingsSchema))),
  status_checker_time_rates: Type.Optional(Type.Record(Type.String(), Type.Number())),
};

// api_key: the provider's API key; sandbox: provider sandbox mode; host2host: the card travels in params; assets:
// files (certificates) in base64; validate_signature: requests to the adapter carry X-SIGNATURE.
export const ADAPTER_SETTINGS_FIELDS = {
  api_key: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  sign_key: Type.Optional(Type.String({ description: 'signs callback JWTs (HS512) and encrypts merchant_private_key (AES-256-CBC)' })),
  sandbox: Type.Optional(Type.Boolean()),
  host2host: Type.Optional(Type.Boolean()),
  payment_method: Type.Optional(
    literalUnion(PAYMENT_METHODS, {
      description:
        'what the gateway takes from the customer, default card: for bank_account and redirect the hosted page collects no card and /pay carries no pan, cvv, expires or card',
    }),
  ),
  gateway_settings: Type.Optional(Type.Object(GATEWAY_SETTINGS_FIELDS)),
  assets: Type.Optional(Type.Record(Type.String({ maxLength: 255 }), Type.String({ maxLength: 1_000_000 }), { maxProperties: 20 })),
  validate_signature: Type.Optional(Type.Boolean()),
  custom_host: Type.Optional(Type.String({ maxLength: 255 })),
  enable_routing: Type.Optional(Type.Boolean()),
  enable_update_amount: Type.Optional(Type.Boolean()),
  enable_change_final_status: Type.Optional(Type.Boolean()),
  decline_payout_on_request_error: Type.Optional(Type.Boolean()),
};
export const AdapterSettingsSchema = Type.Object(ADAPTER_SETTINGS_FIELDS);
export type AdapterSettings = Static<typeof AdapterSettingsSchema>;

// spec 2.10: methods.<method>.response_timeout, in seconds, 15 when absent.
export function responseTimeoutMsOf(settings: AdapterSettings | undefined, method: string): number {
  const methods = settings?.gateway_settings?.methods as Record<string, MethodSettings | undefined> | undefined;
  const seconds = methods?.[method]?.response_timeout;
  return (typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : RESPONSE_TIMEOUT_S_DEFAULT) * 1000;
}
