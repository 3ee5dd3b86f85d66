import { newId, type SimulatorContext } from './context.ts';
import type { PayoutRecord } from './resources.ts';
import type { CreatePayoutBodyInput } from './schemas.ts';
import { payoutScenarioOf } from './test-cards.ts';

// What Acme Pay does with a payout: paid or failed at once, or in transit until the processing delay has passed
// (then paid, announced by webhook).
export function createPayout(context: SimulatorContext, accountId: string, body: CreatePayoutBodyInput, now: Date): PayoutRecord {
  const destination = body.destination;
  const cardNumber = destination.type === 'card' ? destination.card_number : null;
  const accountNumber = destination.type === 'bank_account' ? destination.account_number : null;
  const scenario = payoutScenarioOf({ cardNumber, accountNumber }, body.amount_cents);
  const inTransit = scenario.flow === 'in_transit';
  const record: PayoutRecord = {
    accountId,
    view: {
      id: newId('po'),
      object: 'payout',
      created_at: now.toISOString(),
      amount_cents: body.amount_cents,
      currency_code: body.currency_code,
      state: inTransit ? 'in_transit' : scenario.failureCode === null ? 'paid' : 'failed',
      failure_code: inTransit ? null : scenario.failureCode,
      destination: { type: destination.type, last4: (cardNumber ?? accountNumber ?? '').slice(-4) },
      reference: body.reference,
      metadata: body.metadata ?? {},
    },
    finalFailureCode: scenario.failureCode,
    webhookUrl: body.webhook_url ?? null,
  };
  context.payouts.set(record.view.id, record);
  if (inTransit) context.later(context.timing.processingDelayMs, () => arrive(context, record));
  return record;
}

export function payoutsWithReference(context: SimulatorContext, accountId: string, reference: string) {
  return [...context.payouts.values()].filter((record) => record.accountId === accountId && record.view.reference === reference).map((record) => record.view);
}

function arrive(context: SimulatorContext, record: PayoutRecord): void {
  record.view.state = record.finalFailureCode === null ? 'paid' : 'failed';
  record.view.failure_code = record.finalFailureCode;
  if (record.webhookUrl !== null) {
    context.webhooks.send(record.webhookUrl, context.webhookSecretOf(record.accountId), 'payout.updated', structuredClone(record.view));
  }
}
