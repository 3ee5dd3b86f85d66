import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { gatewayLabel, type ServiceMetrics } from '../lib/service-metrics.ts';

// One registry per running service (never prom-client's global one): tests start several services in one process.
// Label values come from bounded sets only (lib/service-metrics.ts); the route is Fastify's pattern, never the URL.
const HTTP_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const ADAPTER_BUCKETS_S = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30, 60, 120];

export interface MetricsRegistry {
  registry: Registry;
  metrics: ServiceMetrics;
}

export function createMetricsRegistry(): MetricsRegistry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry }); // process_* and nodejs_*: CPU, memory, event loop lag, handles
  const registers = [registry];
  const httpDuration = new Histogram({
    name: 'payrail_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern (unmatched: no route) and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: HTTP_BUCKETS_S,
    registers,
  });
  const paymentLabels = ['status', 'environment', 'gateway_id'] as const;
  const created = new Counter({
    name: 'payrail_payments_created_total',
    help: 'Payments created, by status at creation',
    labelNames: paymentLabels,
    registers,
  });
  const finalized = new Counter({ name: 'payrail_payments_finalized_total', help: 'Payments moved to a final status', labelNames: paymentLabels, registers });
  const adapterLabels = ['gateway_id', 'method', 'transport'] as const;
  const adapterDuration = new Histogram({
    name: 'payrail_adapter_call_duration_seconds',
    help: 'Adapter calls (every method, both transports), answered or not',
    labelNames: adapterLabels,
    buckets: ADAPTER_BUCKETS_S,
    registers,
  });
  const adapterErrors = new Counter({
    name: 'payrail_adapter_call_errors_total',
    help: 'Adapter calls without a usable answer: http_error, invalid_json, timeout, network_error',
    labelNames: [...adapterLabels, 'error'] as const,
    registers,
  });
  const notifications = new Counter({
    name: 'payrail_notification_deliveries_total',
    help: 'Merchant notification attempts: delivered, failed (retried), gave_up (last attempt failed), skipped, error',
    labelNames: ['result'] as const,
    registers,
  });
  const metrics: ServiceMetrics = {
    httpRequest: (method, route, statusCode, durationS) => httpDuration.observe({ method, route, status_code: String(statusCode) }, durationS),
    paymentCreated: (payment) =>
      created.inc({ status: payment.status, environment: payment.environment, gateway_id: gatewayLabel(payment.gatewayId, payment.environment) }),
    paymentFinalized: (payment) =>
      finalized.inc({ status: payment.status, environment: payment.environment, gateway_id: gatewayLabel(payment.gatewayId, payment.environment) }),
    adapterCall: (call, durationS, error) => {
      const labels = { gateway_id: gatewayLabel(call.gatewayId), method: call.method, transport: call.transport };
      adapterDuration.observe(labels, durationS);
      if (error !== null) adapterErrors.inc({ ...labels, error });
    },
    notificationDelivery: (result) => notifications.inc({ result }),
  };
  return { registry, metrics };
}
