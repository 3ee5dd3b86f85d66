import Type, { type Static } from 'typebox';
import {
  PayRequestSchema,
  StatusRequestSchema,
  AdapterSettingsSchema,
  amountMinorField,
  currencyField,
  httpUrlField,
  KEY_LENGTH_MAX,
  panField,
  TOKEN_LENGTH_MAX,
  tokenField,
  URL_LENGTH_MAX,
} from '@payrail/adapter-kit';

// The adapter kit's request schemas (spec 2.8 / section 4), and where the sandbox reads more leniently than the
// contract (older request forms it still answers), its own, made of the kit's fields. A request that fails these is
// answered HTTP 200 with result=false (spec 7.3) by the kit's scaffold (routes.ts).

const Token = tokenField;
const HttpUrl = httpUrlField;
const AmountMinor = amountMinorField;
const Currency = currencyField();
const Pan = panField();
const CardRef = Type.Object({
  pan: Type.Optional(Pan),
  card_token_from: Type.Optional(Token('a recurring_gateway_token the sandbox issued: charge the card on file (recurring-flow.ts)')),
});

// sign_key and validate_signature are not read: the sandbox verifies X-SIGNATURE and signs its callbacks with its
// own secret only, never with a key the request names.
const Settings = AdapterSettingsSchema;

// spec 2.8 as the kit has it: a card (params.pan or params.card) or a bank account (requisites).
export const PayBody = PayRequestSchema;
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

export const StatusBody = StatusRequestSchema;
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
