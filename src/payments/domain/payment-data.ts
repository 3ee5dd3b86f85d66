// The JSON a payment row keeps (payments.customer, recurring_data, bank_account, gateway_details, …): one schema
// per column, the column's type in store/tables-payments.ts and the check its writers run (store/json-columns.ts).
// The schemas state what the service itself builds, no more: a value the service wrote yesterday passes today.
import { RedirectRequestSchema } from '@payrail/adapter-kit';
import Type, { type Static, type TSchema } from 'typebox';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const NullableText = Nullable(Type.String());

export const RequisiteTypeSchema = Type.Union([Type.Literal('sbp'), Type.Literal('card'), Type.Literal('account'), Type.Literal('link')]);

// The browser facts a customer object may carry (spec 2.1 customer.browser); the create request keeps these alone.
export const BrowserSchema = Type.Object({
  accept_header: Type.Optional(Type.String()),
  color_depth: Type.Optional(Type.Number()),
  ip: Type.Optional(Type.String()),
  language: Type.Optional(Type.String()),
  screen_height: Type.Optional(Type.Number()),
  screen_width: Type.Optional(Type.Number()),
  tz: Type.Optional(Type.Number()),
  user_agent: Type.Optional(Type.String()),
  java_enabled: Type.Optional(Type.Boolean()),
  javascript_enabled: Type.Optional(Type.Boolean()),
  window_width: Type.Optional(Type.Number()),
  window_height: Type.Optional(Type.Number()),
});

export const CustomerSchema = Type.Object({
  email: Type.String(),
  firstName: NullableText,
  lastName: NullableText,
  address: NullableText,
  country: NullableText,
  city: NullableText,
  region: NullableText,
  postcode: NullableText,
  phone: NullableText,
  ip: NullableText,
  browser: Nullable(BrowserSchema),
});

// payments.customer: a payment's customer; a payout's adds the recipient's middle name.
export const StoredCustomerSchema = Type.Object({ ...CustomerSchema.properties, middleName: Type.Optional(NullableText) });
export type StoredCustomer = Static<typeof StoredCustomerSchema>;

// payments.recurring_data: the first payment of a series, its bound (spec 2.1 recurring_data).
export const RecurringDataSchema = Type.Object({ days: Type.Number(), expDate: Type.String() });
export type RecurringData = Static<typeof RecurringDataSchema>;

// payments.bank_account: a payment's bank_account, or a payout's recipient account (whose requisite type is set).
export const BankAccountSchema = Type.Object({
  bankName: NullableText,
  requisiteType: Nullable(RequisiteTypeSchema),
  accountNumber: NullableText,
});
export type StoredBankAccount = Static<typeof BankAccountSchema>;

// payments.gateway_details, provider_response_data, requisites: objects an adapter answered, kept as they came.
export const JsonObjectSchema = Type.Record(Type.String(), Type.Unknown());
export type JsonObject = Static<typeof JsonObjectSchema>;

// payment_logs.entry, payment_conflicts.raw_answer: what we sent and read, or an adapter logged or claimed, masked
// and kept as it came: any JSON value (an adapter's log item may be a plain text), never a function, a NaN or a
// bigint. A member left undefined is what JSON.stringify makes of it (dropped; null in an array), as before.
const JsonMember = Type.Union([Type.Ref('JsonValue'), Type.Undefined()]);
export const JsonValueSchema = Type.Cyclic(
  {
    JsonValue: Type.Union([Type.Null(), Type.Boolean(), Type.Number(), Type.String(), Type.Array(JsonMember), Type.Record(Type.String(), JsonMember)]),
  },
  'JsonValue',
);
export type JsonValue = Static<typeof JsonValueSchema>;

// payments.redirect_request: where the customer's browser goes next, as the adapter asked (checked when read).
export { RedirectRequestSchema };
export type RedirectRequest = Static<typeof RedirectRequestSchema>;
