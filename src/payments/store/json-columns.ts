import { type JsonColumnCheck, jsonColumnCheck, jsonColumnValue } from '../../platform/lib/json-column-check.ts';
import {
  BankAccountSchema,
  JsonObjectSchema,
  JsonValueSchema,
  RecurringDataSchema,
  RedirectRequestSchema,
  StoredCustomerSchema,
} from '../domain/payment-data.ts';
import { PendingStepSchema } from '../domain/pending-step.ts';
import { RoutingDecisionSchema } from '../domain/routing-decision.ts';

// The payments row's JSON columns, each checked against the schema that types it (domain/payment-data.ts).
const PAYMENT_JSON_CHECKS: ReadonlyMap<string, JsonColumnCheck> = new Map([
  ['customer', jsonColumnCheck('payments.customer', StoredCustomerSchema)],
  ['recurringData', jsonColumnCheck('payments.recurring_data', RecurringDataSchema)],
  ['bankAccount', jsonColumnCheck('payments.bank_account', BankAccountSchema)],
  ['gatewayDetails', jsonColumnCheck('payments.gateway_details', JsonObjectSchema)],
  ['providerResponseData', jsonColumnCheck('payments.provider_response_data', JsonObjectSchema)],
  ['requisites', jsonColumnCheck('payments.requisites', JsonObjectSchema)],
  ['redirectRequest', jsonColumnCheck('payments.redirect_request', RedirectRequestSchema)],
  ['pendingStep', jsonColumnCheck('payments.pending_step', PendingStepSchema)],
  ['routingDecision', jsonColumnCheck('payments.routing_decision', RoutingDecisionSchema)],
]);

// Checks every JSON column an insert or update of a payment sets; its other columns are left alone.
export function assertPaymentJson(values: object): void {
  for (const [column, value] of Object.entries(values)) PAYMENT_JSON_CHECKS.get(column)?.(value);
}

// A payment log's entry and a conflict's raw answer: masked JSON, checked to be JSON and nothing else.
export const paymentLogEntryOf = jsonColumnValue('payment_logs.entry', JsonValueSchema);
export const conflictRawAnswerOf = jsonColumnValue('payment_conflicts.raw_answer', JsonValueSchema);
