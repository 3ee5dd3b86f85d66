import { AcmeApiError, newId, type SimulatorContext } from './context.ts';
import { brandOf, REFUSAL_MESSAGES, type ChargeRecord, type ChargeView, type RefundRecord } from './resources.ts';
import type { CreateChargeBodyInput, CreateRefundBodyInput } from './schemas.ts';
import { chargeScenarioOf, type ChargeRefusalCode } from './test-cards.ts';

// What Acme Pay does with a charge: decide its outcome from the test-card table, move it through its states
// (now, after the processing delay, or when the customer answers the challenge) and announce each final
// state by webhook.

export interface CreatedCharge {
  record: ChargeRecord;
  answerDelayMs: number; // how long the create answer waits (the slow test card)
}

export function createCharge(context: SimulatorContext, accountId: string, body: CreateChargeBodyInput, now: Date): CreatedCharge {
  const scenario = chargeScenarioOf({
    number: body.card.number,
    expMonth: body.card.exp_month,
    expYear: body.card.exp_year,
    amountCents: body.amount_cents,
    now,
  });
  const id = newId('ch');
  const view: ChargeView = {
    id,
    object: 'charge',
    created_at: now.toISOString(),
    amount_cents: body.amount_cents,
    currency_code: body.currency_code,
    state: 'processing',
    refusal_code: null,
    refusal_message: null,
    reference: body.reference,
    card: { last4: body.card.number.slice(-4), brand: brandOf(body.card.number), exp_month: body.card.exp_month, exp_year: body.card.exp_year },
    amount_refunded_cents: 0,
    next_action: null,
    metadata: body.metadata ?? {},
  };
  const record: ChargeRecord = { accountId, view, scenario, webhookUrl: body.webhook_url ?? null, returnUrl: body.return_url ?? null };
  context.charges.set(id, record);
  switch (scenario.flow) {
    case 'immediate':
    case 'slow':
      settle(record, scenario.refusalCode);
      break;
    case 'processing_webhook':
      context.later(context.timing.processingDelayMs, () => finishCharge(context, record, scenario.refusalCode, true));
      break;
    case 'processing_silent':
      context.later(context.timing.processingDelayMs, () => finishCharge(context, record, scenario.refusalCode, false));
      break;
    case 'challenge':
      view.state = 'challenge_required';
      view.next_action = { type: 'redirect', redirect_url: `${context.publicUrl()}/challenge/${id}` };
      break;
  }
  return { record, answerDelayMs: scenario.flow === 'slow' ? context.timing.slowResponseMs : 0 };
}

// The customer passed or failed the challenge: the charge ends, and its webhook goes out.
export function completeChallenge(context: SimulatorContext, record: ChargeRecord, outcome: 'pass' | 'fail'): void {
  if (record.view.state !== 'challenge_required') throw new AcmeApiError(409, 'state_error', 'challenge_not_pending', 'this charge has no pending challenge');
  record.view.next_action = null;
  finishCharge(context, record, outcome === 'pass' ? record.scenario.refusalCode : 'authentication_failed', true);
}

export function refundCharge(context: SimulatorContext, record: ChargeRecord, body: CreateRefundBodyInput, now: Date): RefundRecord {
  const charge = record.view;
  if (charge.state !== 'authorised')
    throw new AcmeApiError(409, 'state_error', 'charge_not_refundable', `a charge in state ${charge.state} cannot be refunded`);
  const refundableCents = charge.amount_cents - charge.amount_refunded_cents;
  if (body.amount_cents > refundableCents) {
    throw new AcmeApiError(422, 'invalid_request_error', 'amount_too_large', `at most ${refundableCents} cents of this charge can be refunded`, 'amount_cents');
  }
  const failed = record.scenario.refundsFail;
  if (!failed) charge.amount_refunded_cents += body.amount_cents;
  const refund: RefundRecord = {
    accountId: record.accountId,
    view: {
      id: newId('re'),
      object: 'refund',
      created_at: now.toISOString(),
      charge_id: charge.id,
      amount_cents: body.amount_cents,
      currency_code: charge.currency_code,
      state: failed ? 'failed' : 'succeeded',
      failure_code: failed ? 'refund_declined' : null,
      metadata: body.metadata ?? {},
    },
  };
  context.refunds.set(refund.view.id, refund);
  return refund;
}

export function chargesWithReference(context: SimulatorContext, accountId: string, reference: string): ChargeView[] {
  return [...context.charges.values()].filter((record) => record.accountId === accountId && record.view.reference === reference).map((record) => record.view);
}

function finishCharge(context: SimulatorContext, record: ChargeRecord, refusalCode: ChargeRefusalCode | null, announce: boolean): void {
  settle(record, refusalCode);
  if (announce && record.webhookUrl !== null) {
    context.webhooks.send(record.webhookUrl, context.webhookSecretOf(record.accountId), 'charge.updated', structuredClone(record.view));
  }
}

function settle(record: ChargeRecord, refusalCode: ChargeRefusalCode | null): void {
  record.view.state = refusalCode === null ? 'authorised' : 'refused';
  record.view.refusal_code = refusalCode;
  record.view.refusal_message = refusalCode === null ? null : REFUSAL_MESSAGES[refusalCode];
}
