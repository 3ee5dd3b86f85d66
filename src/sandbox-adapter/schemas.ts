import Type, { type Static } from 'typebox';

// The minimum of spec 2.8 / section 4 the sandbox needs; other fields pass through untouched.
// A request that fails these is answered HTTP 200 with result=false (spec 7.3), by routes.ts's error handler.

const TOKEN_LENGTH_MAX = 256;
const KEY_LENGTH_MAX = 1024;
const URL_LENGTH_MAX = 2048;
const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#\\s]+[^\\s]*$';
// 12..19 digits, spaces allowed between them.
const PAN_PATTERN = '^\\s*(?:[0-9]\\s*){12,19}$';
const CURRENCY_PATTERN = '^[A-Z]{3}$';
const AMOUNT_MINOR_MAX = Number.MAX_SAFE_INTEGER;

const Token = (description: string) => Type.String({ minLength: 1, maxLength: TOKEN_LENGTH_MAX, description });
const HttpUrl = (description: string) => Type.String({ maxLength: URL_LENGTH_MAX, pattern: HTTP_URL_PATTERN, description });
const AmountMinor = (description: string) => Type.Integer({ minimum: 1, maximum: AMOUNT_MINOR_MAX, description });
const Currency = Type.String({ pattern: CURRENCY_PATTERN, description: 'ISO 4217 alphabetic code' });
const Pan = Type.String({ pattern: PAN_PATTERN, description: 'card number, 12..19 digits, spaces allowed' });
const CardRef = Type.Object({
  pan: Type.Optional(Pan),
  card_token_from: Type.Optional(Token('a recurring_gateway_token the sandbox issued: charge the card on file (recurring-flow.ts)')),
});

const MethodSettings = Type.Object({
  response_timeout: Type.Optional(Type.Number({ minimum: 0, description: 'seconds; default 15' })),
});

// sign_key and validate_signature are not read: the sandbox verifies X-SIGNATURE and signs its callbacks with its
// own secret only, never with a key the request names.
const Settings = Type.Object({
  sandbox: Type.Optional(Type.Boolean({ description: 'must be true for test cards to work' })),
  gateway_settings: Type.Optional(
    Type.Object({
      methods: Type.Optional(Type.Object({ pay: Type.Optional(MethodSettings), payout: Type.Optional(MethodSettings) })),
    }),
  ),
});

export const PayBody = Type.Object({
  method_name: Type.Literal('pay'),
  params: Type.Optional(
    Type.Object({
      pan: Type.Optional(Pan),
      card: Type.Optional(CardRef),
      recurring: Type.Optional(Type.Boolean({ description: 'true: keep the card on file and answer recurring_gateway_token' })),
      need_confirmation: Type.Optional(Type.Boolean({ description: 'true: a two-step pay, captured by confirm_request or voided by decline_request' })),
      bank_account: Type.Optional(Type.Object({ requisite_type: Type.Optional(Type.Union([Type.String(), Type.Null()])) })),
    }),
  ),
  payment: Type.Object({
    token: Token('the payment token, unique'),
    merchant_private_key: Type.String({ minLength: 1, maxLength: KEY_LENGTH_MAX }),
    gateway_amount: AmountMinor('minor units'),
    gateway_currency: Currency,
  }),
  settings: Settings,
  processing_url: HttpUrl('where the customer returns after 3-D Secure'),
  callback_url: HttpUrl('where provider callbacks go'),
});
export type PayBodyInput = Static<typeof PayBody>;

// Section 4: amount and currency come in params; payment.gateway_amount / gateway_currency are accepted instead.
export const PayoutBody = Type.Object({
  method_name: Type.Literal('payout'),
  params: Type.Optional(
    Type.Object({
      amount: Type.Optional(AmountMinor('minor units')),
      currency: Type.Optional(Currency),
      pan: Type.Optional(Pan),
      card: Type.Optional(CardRef),
      bank_account: Type.Optional(Type.Object({ requisite_type: Type.Optional(Type.Union([Type.String(), Type.Null()])) })),
    }),
  ),
  payment: Type.Object({
    token: Token('the payout token, unique'),
    merchant_private_key: Type.Optional(Type.String({ maxLength: KEY_LENGTH_MAX })),
    gateway_amount: Type.Optional(AmountMinor('minor units')),
    gateway_currency: Type.Optional(Currency),
  }),
  settings: Settings,
  callback_url: Type.Optional(HttpUrl('where provider callbacks go')),
});
export type PayoutBodyInput = Static<typeof PayoutBody>;

export const StatusBody = Type.Object({
  method_name: Type.Literal('status'),
  payment: Type.Object({
    token: Token('the original pay or payout token'),
    gateway_token: Type.Optional(Type.Union([Token('the sandbox transaction id'), Type.Null()])),
  }),
  settings: Settings,
});
export type StatusBodyInput = Static<typeof StatusBody>;

// Payrail sends refund { amount, token } (adapter-contract.ts RefundRequest); params.amount is still read when
// refund.amount is absent. With refund.token the refund is idempotent: a repeat answers the first refund.
export const RefundBody = Type.Object({
  method_name: Type.Literal('refund'),
  params: Type.Optional(Type.Object({ amount: Type.Optional(AmountMinor('minor units; the whole remaining amount when absent')) })),
  payment: Type.Object({
    token: Token('the token of the approved payment to refund'),
    gateway_token: Type.Optional(Type.Union([Token('the sandbox transaction id of the payment'), Type.Null()])),
    currency: Type.Optional(Currency),
  }),
  refund: Type.Optional(
    Type.Object({
      amount: Type.Optional(AmountMinor('minor units; the whole remaining amount when absent')),
      token: Type.Optional(Token("the refund's own token: a repeat of it is answered from the first refund")),
    }),
  ),
  settings: Settings,
});
export type RefundBodyInput = Static<typeof RefundBody>;

// Issue 8's shapes of two operations section 4 only names (contract/adapter-contract.ts ConfirmRequest and
// DeclineRequest): a two-step pay's authorization captured (payment.amount, at most the authorized amount) or voided.
const twoStepPaymentFields = {
  token: Token('the token of the two-step pay'),
  gateway_token: Type.Optional(Type.Union([Token('the sandbox transaction id'), Type.Null()])),
  currency: Currency,
};

export const ConfirmRequestBody = Type.Object({
  method_name: Type.Literal('confirm_request'),
  payment: Type.Object({ ...twoStepPaymentFields, amount: AmountMinor('minor units to capture, at most the authorized amount') }),
  settings: Settings,
});
export type ConfirmRequestBodyInput = Static<typeof ConfirmRequestBody>;

export const DeclineRequestBody = Type.Object({
  method_name: Type.Literal('decline_request'),
  payment: Type.Object({ ...twoStepPaymentFields, amount: Type.Optional(AmountMinor('the authorized amount released')) }),
  settings: Settings,
});
export type DeclineRequestBodyInput = Static<typeof DeclineRequestBody>;

const AdapterLogEntry = Type.Object({
  kind: Type.String(),
  request: Type.Object({ url: Type.String(), body: Type.Optional(Type.Unknown()) }),
  status: Type.Integer(),
  response: Type.Optional(Type.Unknown()),
  duration: Type.Number({ description: 'seconds' }),
});

// spec 2.9: one shape for every adapter answer; a field not listed here never leaves.
export const AdapterAnswerSchema = Type.Object({
  result: Type.Boolean(),
  status: Type.Optional(Type.String()),
  gateway_token: Type.Optional(Type.String()),
  amount: Type.Optional(Type.Integer()),
  currency: Type.Optional(Type.String()),
  redirect_request: Type.Optional(Type.Object({ url: Type.String(), type: Type.String(), params: Type.Optional(Type.Record(Type.String(), Type.String())) })),
  requisites: Type.Optional(Type.Record(Type.String(), Type.String())),
  recurring_gateway_token: Type.Optional(Type.String()),
  details: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  code: Type.Optional(Type.Integer()),
  logs: Type.Array(AdapterLogEntry),
});

export const TransactionParams = Type.Object({ transactionId: Type.String({ minLength: 1, maxLength: TOKEN_LENGTH_MAX }) });
export type TransactionParamsInput = Static<typeof TransactionParams>;

// The form the business service's page posts to start 3-D Secure (redirect_request type post).
export const ThreeDSecureStartForm = Type.Object({
  PaReq: Type.Optional(Type.String({ maxLength: KEY_LENGTH_MAX })),
  MD: Type.Optional(Type.String({ maxLength: TOKEN_LENGTH_MAX })),
  TermUrl: Type.Optional(Type.String({ maxLength: URL_LENGTH_MAX })),
});
export type ThreeDSecureStartFormInput = Static<typeof ThreeDSecureStartForm>;

export const ThreeDSecureCompleteForm = Type.Object({ outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]) });
export type ThreeDSecureCompleteFormInput = Static<typeof ThreeDSecureCompleteForm>;
