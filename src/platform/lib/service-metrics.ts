// What the modules count, as a small interface: the prom-client registry behind it lives in platform/runtime
// (metrics-registry.ts), so no module imports prom-client. Every label is from a bounded set: a route pattern, a
// status, a gateway's id (operator-created), an adapter method; never a token, an order number or a merchant's text.

export type NotificationResult = 'delivered' | 'failed' | 'gave_up' | 'skipped' | 'error';
type AdapterCallError = 'http_error' | 'invalid_json' | 'timeout' | 'network_error';

interface PaymentLabels {
  status: string;
  environment: string;
  gatewayId: number | null; // null: not sent to a gateway of its own (the built-in sandbox, or none yet)
}

interface AdapterCallLabels {
  gatewayId: number | null; // null: the built-in sandbox gateway
  method: string; // an adapter method of the contract (pay, status, refund, …)
  transport: string; // the gateway's processing_method: http_requests | rabbit
}

export interface ServiceMetrics {
  httpRequest(method: string, route: string, statusCode: number, durationS: number): void;
  paymentCreated(payment: PaymentLabels): void;
  paymentFinalized(payment: PaymentLabels): void;
  adapterCall(call: AdapterCallLabels, durationS: number, error: AdapterCallError | null): void;
  notificationDelivery(result: NotificationResult): void;
}

// A gateway's label: its id, or `sandbox` for the built-in sandbox gateway (which has no row), `none` for a payment
// that has not reached a gateway.
export function gatewayLabel(gatewayId: number | null, environment?: string): string {
  if (gatewayId !== null) return String(gatewayId);
  return environment === undefined || environment === 'sandbox' ? 'sandbox' : 'none';
}
