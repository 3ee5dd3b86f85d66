import { randomUUID } from 'node:crypto';
import type { AdapterOutcome } from '../domain/adapter-outcome.ts';
import { canTransition, isFinal, type PaymentStatus } from '../domain/payment-status.ts';
import { mapRequisites } from '../domain/requisites.ts';
import type { GatewaySettings } from '../contract/gateway-settings.ts';
import { redactForLog } from '../lib/redact.ts';
import type { Db } from '../store/database.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { enqueue, finishOpenWork, insertPaymentLogs, lockPayment, updatePayment } from '../store/processing-repo.ts';

export interface OutcomeSource {
  kind: 'pay' | 'status' | 'callback';
  settings: GatewaySettings;
  extraLogs?: readonly unknown[];
}

export interface AppliedOutcome {
  payment: PaymentRow;
  changed: boolean; // the status moved
}

// One transaction: lock the payment, let the state machine decide, save, and queue the work it causes
// (principles 3 and 8). A poll and a callback racing on one payment serialize on the row lock.
export async function applyGatewayOutcome(db: Db, paymentId: number, outcome: AdapterOutcome, source: OutcomeSource): Promise<AppliedOutcome> {
  return db.transaction(async (tx) => {
    const current = await lockPayment(tx, paymentId);
    if (!current) throw new Error(`payment ${paymentId} not found`);
    const from = current.status as PaymentStatus;
    const allowFinalChange = source.settings.enable_change_final_status === true;
    const moves = outcome.status !== from && canTransition(from, outcome.status, { allowFinalChange });
    const frozen = isFinal(from) && !moves; // a final payment only records the logs of late answers
    const changes: Partial<PaymentRow> = {};
    if (!frozen) {
      if (outcome.gatewayToken) changes.gatewayToken = outcome.gatewayToken;
      if (outcome.gatewayDetails) changes.gatewayDetails = outcome.gatewayDetails;
      if (outcome.providerResponseData) changes.providerResponseData = outcome.providerResponseData;
      if (outcome.recurringGatewayToken) changes.recurringGatewayToken = outcome.recurringGatewayToken;
      if (outcome.redirectRequest) changes.redirectRequest = outcome.redirectRequest;
      if (outcome.requisites) {
        const customFields = source.settings.gateway_settings.methods?.custom_requisite_fields ?? [];
        changes.requisites = mapRequisites(outcome.requisites, customFields);
      }
      const amountChanged = outcome.amount !== null && outcome.amount > 0 && outcome.amount !== current.amountMinor;
      if (amountChanged && source.settings.enable_update_amount === true) {
        changes.amountMinor = outcome.amount!;
        changes.gatewayAmountMinor = outcome.amount!;
      }
    }
    if (moves) {
      changes.status = outcome.status;
      changes.declineReason = outcome.status === 'declined' ? outcome.declineReason : null;
      if (isFinal(outcome.status)) changes.finalizedAt = new Date();
    }
    const payment = Object.keys(changes).length > 0 ? await updatePayment(tx, paymentId, changes) : current;
    const logs = [...(source.extraLogs ?? []), ...outcome.logs].map((entry) => ({ kind: source.kind, entry: redactForLog(entry) }));
    await insertPaymentLogs(tx, paymentId, logs);
    if (moves && isFinal(outcome.status)) await queueFinalWork(tx as unknown as Db, paymentId);
    return { payment, changed: moves };
  });
}

// A final status stops polling and queues the merchant notification, with a stable event id.
export async function queueFinalWork(db: Db, paymentId: number): Promise<void> {
  await finishOpenWork(db, paymentId, 'status_check');
  await enqueue(db, { topic: 'notification', paymentId, dueAt: new Date(), eventId: randomUUID() });
}
