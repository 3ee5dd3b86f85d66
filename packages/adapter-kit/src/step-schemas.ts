import Type, { type Static } from 'typebox';
import { AdapterSettingsSchema } from './settings-schema.ts';
import { httpUrlField, tokenField } from './wire-fields.ts';

// Section 4 names confirm_secure_code, resend_otp and next_payment_step without their shapes; Payrail fixes them.
// A pending answer (to /pay or to one of these) may ask the customer for a secure code (secure_code_request) or for
// more data (next_step); the customer's answer comes back with these requests, each answered like a /pay
// (spec 2.9): approved, declined, or pending with another step or a redirect_request.

const SECURE_CODE_LENGTH_MAX = 16;
const STEP_FIELDS_MAX = 10;
const STEP_FIELD_VALUE_LENGTH_MAX = 256;
const STEP_MESSAGE_LENGTH_MAX = 500;
const SELECT_OPTIONS_MAX = 50;

const StepPayment = Type.Object({
  token: tokenField('the payment token'),
  gateway_token: Type.Optional(tokenField("the provider's transaction id, once the adapter gave one")),
});

export const ConfirmSecureCodeRequestSchema = Type.Object({
  method_name: Type.Literal('confirm_secure_code'),
  payment: StepPayment,
  params: Type.Object({ code: Type.String({ minLength: 1, maxLength: SECURE_CODE_LENGTH_MAX, description: 'the code the customer typed' }) }),
  settings: AdapterSettingsSchema,
});
export type ConfirmSecureCodeRequest = Static<typeof ConfirmSecureCodeRequestSchema>;

// Sends the code again; answered pending (with the secure_code_request to show, when it changed) or final.
export const ResendOtpRequestSchema = Type.Object({
  method_name: Type.Literal('resend_otp'),
  payment: StepPayment,
  settings: AdapterSettingsSchema,
});
export type ResendOtpRequest = Static<typeof ResendOtpRequestSchema>;

// The fields the adapter's next_step listed, by name, as the customer filled them (optional empty ones left out).
export const NextPaymentStepRequestSchema = Type.Object({
  method_name: Type.Literal('next_payment_step'),
  payment: StepPayment,
  params: Type.Object({
    fields: Type.Record(Type.String(), Type.String({ maxLength: STEP_FIELD_VALUE_LENGTH_MAX }), { maxProperties: STEP_FIELDS_MAX }),
  }),
  settings: AdapterSettingsSchema,
  processing_url: httpUrlField('where the customer returns after a redirect'),
  callback_url: httpUrlField('where provider callbacks go (spec 5.6)'),
});
export type NextPaymentStepRequest = Static<typeof NextPaymentStepRequestSchema>;

// A pending answer asks for a secure code with this…
export const SecureCodeRequestSchema = Type.Object({
  length: Type.Optional(Type.Integer({ minimum: 4, maximum: 8, description: "the code's exact length; absent: 1 to 16" })),
  kind: Type.Optional(Type.Union([Type.Literal('otp'), Type.Literal('sms'), Type.Literal('email'), Type.Literal('app')])),
  message: Type.Optional(Type.String({ maxLength: STEP_MESSAGE_LENGTH_MAX })),
  resend_allowed: Type.Optional(Type.Boolean({ description: 'default true: the page offers "send again" (resend_otp)' })),
  attempts_left: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
});
export type SecureCodeRequest = Static<typeof SecureCodeRequestSchema>;

const SelectOption = Type.Union([Type.String(), Type.Object({ value: Type.String(), label: Type.String() })]);

// …or for more data with this: up to 10 fields the page shows as a form and Payrail checks before sending.
export const NextStepSchema = Type.Object({
  message: Type.Optional(Type.String({ maxLength: STEP_MESSAGE_LENGTH_MAX })),
  fields: Type.Array(
    Type.Object({
      name: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' }),
      label: Type.String(),
      type: Type.Optional(Type.Union([Type.Literal('text'), Type.Literal('tel'), Type.Literal('email'), Type.Literal('select')])),
      options: Type.Optional(Type.Array(SelectOption, { minItems: 1, maxItems: SELECT_OPTIONS_MAX })),
      pattern: Type.Optional(Type.String({ maxLength: 200 })),
      max_length: Type.Optional(Type.Integer({ minimum: 1, maximum: STEP_FIELD_VALUE_LENGTH_MAX })),
      required: Type.Optional(Type.Boolean()),
    }),
    { minItems: 1, maxItems: STEP_FIELDS_MAX },
  ),
});
export type NextStep = Static<typeof NextStepSchema>;
