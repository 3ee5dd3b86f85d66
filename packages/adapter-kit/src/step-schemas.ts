import Type, { type Static } from 'typebox';
import { AdapterSettingsSchema } from './settings-schema.ts';
import { httpUrlField, literalUnion, tokenField } from './wire-fields.ts';

// Section 4 names confirm_secure_code, resend_otp and next_payment_step without their shapes; Payrail fixes them.
// A pending answer (to /pay or to one of these) may ask the customer for a secure code (secure_code_request) or for
// more data (next_step); the customer's answer comes back with these requests, each answered like a /pay
// (spec 2.9): approved, declined, or pending with another step or a redirect_request.

// The bounds of a step, one definition: Payrail shows only a step within them, and refuses a whole step outside.
export const STEP_LIMITS = {
  secureCodeLengthMin: 4, // a secure_code_request's length: the code's exact number of letters or digits
  secureCodeLengthMax: 8,
  secureCodeCharsMax: 16, // a code of no stated length
  attemptsLeftMax: 100,
  messageCharsMax: 500,
  fieldsMax: 10,
  labelCharsMax: 200,
  optionsMax: 50,
  optionCharsMax: 200,
  patternCharsMax: 200,
  fieldCharsMax: 256, // the largest max_length a field may have, and its default
} as const;
export const SECURE_CODE_KINDS = ['otp', 'sms', 'email', 'app'] as const;
export const STEP_FIELD_TYPES = ['text', 'tel', 'email', 'select'] as const;
export const STEP_FIELD_NAME_PATTERN = '^[A-Za-z][A-Za-z0-9_]{0,63}$';

const StepPayment = Type.Object({
  token: tokenField('the payment token'),
  gateway_token: Type.Optional(tokenField("the provider's transaction id, once the adapter gave one")),
});

export const ConfirmSecureCodeRequestSchema = Type.Object({
  method_name: Type.Literal('confirm_secure_code'),
  payment: StepPayment,
  params: Type.Object({ code: Type.String({ minLength: 1, maxLength: STEP_LIMITS.secureCodeCharsMax, description: 'the code the customer typed' }) }),
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
    fields: Type.Record(Type.String(), Type.String({ maxLength: STEP_LIMITS.fieldCharsMax }), { maxProperties: STEP_LIMITS.fieldsMax }),
  }),
  settings: AdapterSettingsSchema,
  processing_url: httpUrlField('where the customer returns after a redirect'),
  callback_url: httpUrlField('where provider callbacks go (spec 5.6)'),
});
export type NextPaymentStepRequest = Static<typeof NextPaymentStepRequestSchema>;

// A pending answer asks for a secure code with this…
export const SecureCodeRequestSchema = Type.Object({
  length: Type.Optional(
    Type.Integer({
      minimum: STEP_LIMITS.secureCodeLengthMin,
      maximum: STEP_LIMITS.secureCodeLengthMax,
      description: "the code's exact length; absent: 1 to 16",
    }),
  ),
  kind: Type.Optional(literalUnion(SECURE_CODE_KINDS, { description: 'how the customer got it; default otp' })),
  message: Type.Optional(Type.String({ maxLength: STEP_LIMITS.messageCharsMax, description: 'shown above the code input' })),
  resend_allowed: Type.Optional(Type.Boolean({ description: 'default true: the page offers "send again" (resend_otp)' })),
  attempts_left: Type.Optional(
    Type.Integer({ minimum: 0, maximum: STEP_LIMITS.attemptsLeftMax, description: 'as the provider counts; 0 ends the code entry' }),
  ),
});
export type SecureCodeRequest = Static<typeof SecureCodeRequestSchema>;

const optionText = () => Type.String({ minLength: 1, maxLength: STEP_LIMITS.optionCharsMax });
const SelectOption = Type.Union([optionText(), Type.Object({ value: optionText(), label: optionText() })]);

// One field of a next step; names are unique within the step and a select lists its options.
export const StepFieldSchema = Type.Object({
  name: Type.String({ pattern: STEP_FIELD_NAME_PATTERN, description: 'a letter, then letters, digits or _ (up to 64)' }),
  label: Type.String({ minLength: 1, maxLength: STEP_LIMITS.labelCharsMax, description: 'not blank' }),
  type: Type.Optional(literalUnion(STEP_FIELD_TYPES, { description: 'default text' })),
  options: Type.Optional(Type.Array(SelectOption, { minItems: 1, maxItems: STEP_LIMITS.optionsMax, description: 'select only' })),
  pattern: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: STEP_LIMITS.patternCharsMax,
      description: 'a JavaScript pattern the whole value must match (unicode mode)',
    }),
  ),
  max_length: Type.Optional(Type.Integer({ minimum: 1, maximum: STEP_LIMITS.fieldCharsMax, description: 'default 256' })),
  required: Type.Optional(Type.Boolean({ description: 'default true' })),
});
export type StepField = Static<typeof StepFieldSchema>;

// …or for more data with this: up to 10 fields the page shows as a form and Payrail checks before sending.
export const NextStepSchema = Type.Object({
  message: Type.Optional(Type.String({ maxLength: STEP_LIMITS.messageCharsMax })),
  fields: Type.Array(StepFieldSchema, { minItems: 1, maxItems: STEP_LIMITS.fieldsMax }),
});
export type NextStep = Static<typeof NextStepSchema>;
