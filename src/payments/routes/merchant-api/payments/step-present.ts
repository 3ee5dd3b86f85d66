import Type from 'typebox';
import { currentPendingStep, OTP_RESENDS_MAX, type PendingStep, resendWaitS, SECURE_CODE_ATTEMPTS_MAX } from '../../../domain/pending-step.ts';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

// What the merchant sees of a step a pending payment waits on (issue 10), in the create response (pendingStep) and
// in the payment (pending_step). The customer answers it on the hosted page (processingUrl), or the merchant sends
// the answer: POST /api/v1/payments/{token}/secure_code, /resend_otp or /next_step.
export const PendingStepSchema = Type.Object(
  {
    type: Type.String({ description: 'secure_code | next_step' }),
    secure_code: Type.Optional(
      Type.Object({
        length: Nullable(Type.Integer({ description: 'the exact number of letters or digits; null: 1 to 16' })),
        kind: Type.String({ description: 'otp | sms | email | app: how the customer received the code' }),
        message: Nullable(Type.String({ description: "the provider's words for the customer" })),
        attempts_left: Nullable(Type.Integer({ description: 'codes Payrail still forwards: the lower of its own limit and what the provider says' })),
        resend_allowed: Type.Boolean(),
        resends_left: Type.Integer({ description: `POST …/resend_otp calls left (at most ${OTP_RESENDS_MAX} per payment)` }),
        resend_available_in_s: Nullable(Type.Integer({ description: 'seconds until …/resend_otp is accepted; null: not any more' })),
      }),
    ),
    next_step: Type.Optional(
      Type.Object({
        message: Nullable(Type.String()),
        fields: Type.Array(
          Type.Object({
            name: Type.String({ description: 'the key under fields in POST …/next_step' }),
            label: Type.String(),
            type: Type.String({ description: 'text | tel | email | select' }),
            options: Nullable(Type.Array(Type.Object({ value: Type.String(), label: Type.String() }))),
            pattern: Nullable(Type.String({ description: 'a JavaScript pattern the whole value must match' })),
            max_length: Type.Integer(),
            required: Type.Boolean(),
          }),
        ),
      }),
    ),
  },
  { description: 'what the provider asks before it can finish this pending payment; absent (or null) when nothing' },
);

export function presentPendingStep(payment: { status: string; pendingStep?: PendingStep | null }, now = new Date()) {
  const pending = currentPendingStep({ status: payment.status, pendingStep: payment.pendingStep ?? null });
  if (pending === null) return null;
  const { step } = pending;
  if (step.kind === 'next_step') {
    const { message, fields } = step.nextStep;
    return {
      type: 'next_step',
      next_step: {
        message,
        fields: fields.map((field) => ({
          name: field.name,
          label: field.label,
          type: field.type,
          options: field.options,
          pattern: field.pattern,
          max_length: field.maxLength,
          required: field.required,
        })),
      },
    };
  }
  const ownLeft = Math.max(0, SECURE_CODE_ATTEMPTS_MAX - pending.codeAttempts);
  const code = step.secureCode;
  return {
    type: 'secure_code',
    secure_code: {
      length: code.length,
      kind: code.kind,
      message: code.message,
      attempts_left: code.attemptsLeft === null ? ownLeft : Math.min(ownLeft, code.attemptsLeft),
      resend_allowed: code.resendAllowed,
      resends_left: code.resendAllowed ? Math.max(0, OTP_RESENDS_MAX - pending.resends) : 0,
      resend_available_in_s: resendWaitS(pending, now),
    },
  };
}
