import Type, { type Static } from 'typebox';
import { AdapterSettingsSchema } from './settings-schema.ts';
import { amountMinorField, currencyField, EXPIRES_PATTERN, httpUrlField, merchantKeyField, panField, textField, tokenField } from './wire-fields.ts';

// What Payrail sends to an adapter (spec 2.8 and section 4), one schema per method. The fields the spec marks
// required are required; optional ones are left out when absent, never sent as null. Objects stay open: a key
// this version does not know is passed, not refused, so an adapter keeps working when Payrail adds one.

const Country = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' });

export const CustomerSchema = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 320 }),
  ip: Type.String({ minLength: 2, maxLength: 64 }),
  first_name: Type.Optional(textField('first name')),
  last_name: Type.Optional(textField('last name')),
  middle_name: Type.Optional(textField('middle name')),
  phone: Type.Optional(textField('phone')),
  address: Type.Optional(textField('street address')),
  postcode: Type.Optional(textField('postcode')),
  city: Type.Optional(textField('city')),
  state: Type.Optional(textField('state or region')),
  country: Type.Optional(Country),
  birthday: Type.Optional(textField('date of birth')),
});

export const CardReferenceSchema = Type.Object({
  pan: Type.Optional(panField()),
  card_token_from: Type.Optional(tokenField('a recurring_gateway_token the adapter issued: charge the card on file')),
});

// The merchant's bank travels as bank_code (spec 2.8); Payrail repeats it as bank_name, the key some adapters read.
export const BankAccountSchema = Type.Object({
  account_number: Type.Optional(textField('account number, IBAN or phone (sbp)')),
  bank_code: Type.Optional(textField('bank code')),
  bank_name: Type.Optional(textField('bank name')),
  requisite_type: Type.Optional(textField('card, sbp or account')),
});

export const PayRequestSchema = Type.Object({
  method_name: Type.Literal('pay'),
  params: Type.Object({
    customer: CustomerSchema,
    pan: Type.Optional(panField()),
    cvv: Type.Optional(Type.String({ pattern: '^[0-9]{3,4}$', description: 'Host-to-Host only; never log it' })),
    expires: Type.Optional(Type.String({ pattern: EXPIRES_PATTERN, description: 'MM/YY' })),
    card: Type.Optional(CardReferenceSchema),
    bank_account: Type.Optional(BankAccountSchema),
    extra_return_param: Type.Optional(textField('returned to the merchant as given')),
    recurring: Type.Optional(Type.Boolean({ description: 'keep the card on file and answer recurring_gateway_token' })),
    need_confirmation: Type.Optional(Type.Boolean({ description: 'two-step: authorize now, capture by confirm_request or void by decline_request' })),
    custom_request_field: Type.Optional(textField('free field for the provider')),
  }),
  payment: Type.Object({
    token: tokenField('the payment token, unique'),
    merchant_private_key: merchantKeyField(),
    gateway_amount: amountMinorField('minor units'),
    gateway_currency: currencyField(),
    product: Type.Optional(textField('what is paid for')),
    lead_id: Type.Optional(Type.Integer({ description: "Payrail's id of the payment" })),
    order_number: Type.Optional(textField("the merchant's order number")),
    card_brand_name: Type.Optional(
      textField('Visa, MasterCard, American Express, Maestro, Rupay, Elo, Mir, Discover, China UnionPay, JCB, Dankort, Hipercard'),
    ),
    extra_return_param: Type.Optional(textField('returned to the merchant as given')),
  }),
  settings: AdapterSettingsSchema,
  processing_url: httpUrlField('where the customer returns after the provider (3-D Secure, a bank page)'),
  callback_url: httpUrlField('where provider callbacks go (spec 5.6)'),
});
export type PayRequest = Static<typeof PayRequestSchema>;

// Section 4 /payout: amount and currency in params; the merchant key and callback_url let the provider report
// the payout by callback, as for /pay. Payrail sends processing_url (spec 2.8 names it for every method) and
// lead_id as /pay does; an adapter accepts a payout without them, as earlier versions of Payrail sent it.
export const PayoutRequestSchema = Type.Object({
  method_name: Type.Literal('payout'),
  params: Type.Object({
    amount: amountMinorField('minor units'),
    currency: currencyField(),
    customer: CustomerSchema,
    card: Type.Optional(CardReferenceSchema),
    bank_account: Type.Optional(BankAccountSchema),
  }),
  payment: Type.Object({
    token: tokenField('the payout token, unique'),
    merchant_private_key: Type.Optional(merchantKeyField()),
    gateway_amount: Type.Optional(amountMinorField('minor units')),
    gateway_currency: Type.Optional(currencyField()),
    lead_id: Type.Optional(Type.Integer({ description: "Payrail's id of the payout" })),
    order_number: Type.Optional(textField("the merchant's order number")),
  }),
  settings: AdapterSettingsSchema,
  processing_url: Type.Optional(httpUrlField('the page showing the payout (spec 2.8: the return URL for the user)')),
  callback_url: Type.Optional(httpUrlField('where provider callbacks go (spec 5.6)')),
});
export type PayoutRequest = Static<typeof PayoutRequestSchema>;

export const StatusRequestSchema = Type.Object({
  method_name: Type.Literal('status'),
  payment: Type.Object({
    token: tokenField('the original pay or payout token'),
    gateway_token: Type.Optional(tokenField("the provider's transaction id, once the adapter gave one")),
  }),
  settings: AdapterSettingsSchema,
});
export type StatusRequest = Static<typeof StatusRequestSchema>;

// Section 4 names refund without its shape; Payrail's shape: refund.token is the refund's identity at the adapter
// (a repeat reports that refund, and never refunds twice). Answered like /status (spec 2.9).
export const RefundRequestSchema = Type.Object({
  method_name: Type.Literal('refund'),
  payment: Type.Object({
    token: tokenField('the token of the approved payment'),
    gateway_token: Type.Optional(tokenField("the provider's transaction id of the payment")),
    currency: currencyField(),
  }),
  refund: Type.Object({
    amount: amountMinorField('minor units to refund'),
    token: tokenField("the refund's own token: a repeat is answered from the first refund"),
  }),
  settings: AdapterSettingsSchema,
});
export type RefundRequest = Static<typeof RefundRequestSchema>;

// Two-step payments (a /pay with params.need_confirmation): capture wholly or in part (never above the authorized
// amount), or void. Answered like /status: approved means done; a repeat of a done request answers approved again.
const twoStepPayment = {
  token: tokenField('the token of the two-step pay'),
  gateway_token: Type.Optional(tokenField("the provider's transaction id")),
  currency: currencyField(),
};

export const ConfirmRequestSchema = Type.Object({
  method_name: Type.Literal('confirm_request'),
  payment: Type.Object({ ...twoStepPayment, amount: amountMinorField('minor units to capture, at most the authorized amount') }),
  settings: AdapterSettingsSchema,
});
export type ConfirmRequest = Static<typeof ConfirmRequestSchema>;

export const DeclineRequestSchema = Type.Object({
  method_name: Type.Literal('decline_request'),
  payment: Type.Object({ ...twoStepPayment, amount: amountMinorField('the authorized amount released') }),
  settings: AdapterSettingsSchema,
});
export type DeclineRequest = Static<typeof DeclineRequestSchema>;
