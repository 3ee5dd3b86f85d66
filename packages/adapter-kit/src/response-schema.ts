import Type, { type Static } from 'typebox';
import { NextStepSchema, SecureCodeRequestSchema } from './step-schemas.ts';

// spec 2.9: what an adapter answers, always with HTTP 200 (spec 7.3); the outcome is in the body.

export const ADAPTER_STATUSES = ['approved', 'pending', 'declined'] as const;
export type AdapterStatus = (typeof ADAPTER_STATUSES)[number];
export const REDIRECT_TYPES = ['get', 'post', 'post_iframes', 'get_with_processing', 'redirect_html'] as const;
// spec 7.5: a provider timeout is answered result=false with this code.
export const PROVIDER_TIMEOUT_CODE = 408;

export const AdapterStatusSchema = Type.Union([Type.Literal('approved'), Type.Literal('pending'), Type.Literal('declined')]);

// One interaction with the provider (or, when there was none, with the adapter itself). spec 2.9 requires the logs
// array, none of an item's fields: each is checked when present (interactionLog fills them all).
export const AdapterLogSchema = Type.Object({
  kind: Type.Optional(
    Type.String({
      description: 'pay, payout, status, callback, refund, confirm_request, decline_request, confirm_secure_code, resend_otp, next_payment_step',
    }),
  ),
  request: Type.Optional(Type.Object({ url: Type.Optional(Type.String()), body: Type.Optional(Type.Unknown({ description: 'string or object' })) })),
  status: Type.Optional(Type.Integer({ description: "the provider's HTTP status" })),
  response: Type.Optional(Type.Unknown({ description: 'string or object' })),
  duration: Type.Optional(Type.Number({ minimum: 0, description: 'seconds' })),
});
export type AdapterLog = Static<typeof AdapterLogSchema>;

export const RedirectRequestSchema = Type.Object({
  url: Type.String(),
  type: Type.Union([
    Type.Literal('get'),
    Type.Literal('post'),
    Type.Literal('post_iframes'),
    Type.Literal('get_with_processing'),
    Type.Literal('redirect_html'),
  ]),
  params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type RedirectRequest = Static<typeof RedirectRequestSchema>;

export const RequisitesSchema = Type.Object(
  {
    card: Type.Optional(Type.String()),
    holder: Type.Optional(Type.String()),
    bank_name: Type.Optional(Type.String()),
    phone: Type.Optional(Type.String()),
    account: Type.Optional(Type.String()),
    link: Type.Optional(Type.String()),
    deeplink: Type.Optional(Type.Boolean()),
    qr_data: Type.Optional(Type.String()),
  },
  { additionalProperties: Type.Unknown(), description: 'keys named in custom_requisite_fields are added as the provider gives them' },
);
export type Requisites = Static<typeof RequisitesSchema> & { [customKey: string]: unknown };

// Success and pending: result, status, gateway_token. A system error: result=false with `error`. A business
// decline: result=true, status=declined and a reason (details or declination_reason).
export const AdapterResponseSchema = Type.Object({
  result: Type.Boolean(),
  status: Type.Optional(AdapterStatusSchema),
  gateway_token: Type.Optional(Type.String()),
  amount: Type.Optional(Type.Integer({ minimum: 0, description: 'minor units' })),
  currency: Type.Optional(Type.String()),
  redirect_request: Type.Optional(RedirectRequestSchema),
  requisites: Type.Optional(RequisitesSchema),
  recurring_gateway_token: Type.Optional(Type.String()),
  gateway_details: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'saved into the payment' })),
  provider_response_data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  details: Type.Optional(Type.String()),
  declination_reason: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  code: Type.Optional(Type.Integer()),
  secure_code_request: Type.Optional(SecureCodeRequestSchema), // pending only
  next_step: Type.Optional(NextStepSchema), // pending only
  logs: Type.Array(AdapterLogSchema),
});
export type AdapterResponse = Static<typeof AdapterResponseSchema>;
// What a handler returns: the scaffold adds `logs` when it has none.
export type AdapterAnswer = Omit<AdapterResponse, 'logs'> & { logs?: AdapterLog[] };

// spec 5.6: the claims of a provider callback's JWT. `secure` is merchant_private_key under AES-256-CBC.
export const SecureSchema = Type.Object({ encrypted_data: Type.String(), iv_value: Type.String() });
export type Secure = Static<typeof SecureSchema>;

// What a callback may carry: the status is required (Payrail takes approved, declined or pending: AdapterStatusSchema);
// amount, currency and gateway_token, when given, must be the payment's (the amount may change only where the gateway
// sets enable_update_amount).
export const CallbackClaimsSchema = Type.Object({
  status: Type.String({ description: 'approved, declined or pending' }),
  amount: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'minor units' })),
  currency: Type.Optional(Type.String({ minLength: 1 })),
  reason: Type.Optional(Type.String()),
  gateway_token: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: "the provider's transaction id; null or empty: none" })),
  logs: Type.Optional(Type.Array(Type.Unknown(), { description: 'log items as in spec 2.9' })),
  secure: SecureSchema,
});
export type CallbackClaims = Static<typeof CallbackClaimsSchema>;
