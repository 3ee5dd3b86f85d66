import type { NextPaymentStepRequest, NextStep } from '@payrail/adapter-kit';
import { isOnAllowedOrigin, type AdapterAnswerBody, type SandboxRuntime } from './runtime.ts';
import { pendingAnswer, settle, waitingTransaction } from './otp-flow.ts';

// The sandbox's next step card (test-cards.ts next_step_approved): its /pay answers pending with a next_step asking
// for the phone number linked to the card; next_payment_step with a number approves it, one ending in
// UNLINKED_PHONE_SUFFIX declines it. The callback then reports the outcome.

const PHONE_PATTERN = '\\+?[0-9]{7,15}';
const PHONE_LENGTH_MAX = 16;
const UNLINKED_PHONE_SUFFIX = '0000';
const UNLINKED_PHONE_REASON = 'Phone number is not linked to the card';

export const SANDBOX_NEXT_STEP: NextStep = Object.freeze<NextStep>({
  message: 'Your bank needs the phone number linked to your card (sandbox: any number; one ending in 0000 is declined).',
  fields: [{ name: 'phone', label: 'Phone number', type: 'tel', pattern: PHONE_PATTERN, max_length: PHONE_LENGTH_MAX, required: true }],
});

export async function nextPaymentStepFlow(runtime: SandboxRuntime, body: NextPaymentStepRequest): Promise<AdapterAnswerBody> {
  for (const [field, url] of Object.entries({ processing_url: body.processing_url, callback_url: body.callback_url })) {
    if (!isOnAllowedOrigin(runtime, url)) return { result: false, error: `${field} must be on Payrail's public origin ${runtime.allowedOrigin}` };
  }
  const found = await waitingTransaction(runtime, body.payment, 'next_step_approved');
  if (!('transaction' in found)) return found.answer;
  const phone = body.params.fields['phone'] ?? '';
  if (!new RegExp(`^(?:${PHONE_PATTERN})$`).test(phone)) {
    return { ...pendingAnswer(found.transaction), details: 'fields.phone is missing or not a phone number', next_step: SANDBOX_NEXT_STEP };
  }
  if (phone.endsWith(UNLINKED_PHONE_SUFFIX)) return settle(runtime, found.transaction, 'declined', UNLINKED_PHONE_REASON);
  return settle(runtime, found.transaction, 'approved', null);
}
