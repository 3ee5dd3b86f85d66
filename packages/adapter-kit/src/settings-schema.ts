import Type, { type Static } from 'typebox';

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

// spec 2.9 log kinds: every method, plus the provider's own callbacks.
export const LOG_KINDS = [...ADAPTER_METHODS, 'callback'] as const;
export type LogKind = (typeof LOG_KINDS)[number];

export const RESPONSE_TIMEOUT_S_DEFAULT = 15;
const RESPONSE_TIMEOUT_S_MAX = 600;

export const MethodSettingsSchema = Type.Object({
  response_timeout: Type.Optional(Type.Number({ minimum: 0, maximum: RESPONSE_TIMEOUT_S_MAX, description: 'seconds; default 15' })),
  final_waiting_seconds: Type.Optional(Type.Number({ minimum: 0, description: 'seconds before the first status check; default 15' })),
  enable_status_checker: Type.Optional(Type.Boolean()),
});
export type MethodSettings = Static<typeof MethodSettingsSchema>;

const methodEntries = Object.fromEntries([...LOG_KINDS].map((method) => [method, Type.Optional(MethodSettingsSchema)])) as Record<
  LogKind,
  ReturnType<typeof Type.Optional<typeof MethodSettingsSchema>>
>;

export const AdapterSettingsSchema = Type.Object({
  api_key: Type.Optional(Type.String({ description: 'provider API key' })),
  sign_key: Type.Optional(Type.String({ description: 'signs callback JWTs (HS512) and encrypts merchant_private_key (AES-256-CBC)' })),
  sandbox: Type.Optional(Type.Boolean({ description: 'provider sandbox mode' })),
  host2host: Type.Optional(Type.Boolean({ description: 'Host-to-Host mode: the card travels in params' })),
  gateway_settings: Type.Optional(
    Type.Object({
      processing_method: Type.Optional(Type.Union([Type.Literal('http_requests'), Type.Literal('rabbit')])),
      full_link: Type.Optional(Type.String({ description: 'full adapter URL (http_requests)' })),
      rabbit_url: Type.Optional(Type.String()),
      rabbit_user: Type.Optional(Type.String()),
      rabbit_password: Type.Optional(Type.String()),
      methods: Type.Optional(
        Type.Object({
          ...methodEntries,
          custom_requisite_fields: Type.Optional(Type.Array(Type.String())),
        }),
      ),
      status_checker_time_rates: Type.Optional(Type.Record(Type.String(), Type.Number())),
    }),
  ),
  assets: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'files (certificates) in base64' })),
  validate_signature: Type.Optional(Type.Boolean({ description: 'requests to the adapter carry X-SIGNATURE' })),
  custom_host: Type.Optional(Type.String()),
  enable_routing: Type.Optional(Type.Boolean()),
  enable_update_amount: Type.Optional(Type.Boolean()),
  enable_change_final_status: Type.Optional(Type.Boolean()),
  decline_payout_on_request_error: Type.Optional(Type.Boolean()),
});
export type AdapterSettings = Static<typeof AdapterSettingsSchema>;

// spec 2.10: methods.<method>.response_timeout, in seconds, 15 when absent.
export function responseTimeoutMsOf(settings: AdapterSettings | undefined, method: string): number {
  const methods = settings?.gateway_settings?.methods as Record<string, MethodSettings | undefined> | undefined;
  const seconds = methods?.[method]?.response_timeout;
  return (typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : RESPONSE_TIMEOUT_S_DEFAULT) * 1000;
}
