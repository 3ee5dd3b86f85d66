import type { AdapterClient } from './gateways/http-adapter-client.ts';

// The payments module's part of the application context: the client its flows reach adapters through.
declare module '../app-context.ts' {
  interface AppContext {
    adapterClient: AdapterClient;
  }
}

export type { GatewaySettings } from './contract/adapter-contract.ts';
export { pendingOutcome } from './domain/adapter-outcome.ts';
export { notificationBody } from './domain/notification-body.ts';
export { NOTIFICATION_ATTEMPTS_MAX, notificationDelayMs } from './domain/notification-schedule.ts';
export { modernSignatureHeader } from './domain/notification-signature.ts';
export { interpretStatusAnswer } from './domain/status-answer.ts';
export { voidExpiredAuthorization } from './flows/authorization-void.ts';
export { heldBackByExchange } from './flows/exchange-gate.ts';
export { gatewayOfPayment } from './flows/gateways.ts';
export { endLifetime } from './flows/lifetime-end.ts';
export { createMerchant } from './flows/merchants.ts';
export { awaitsStatusCheck } from './flows/payout-status.ts';
export type { ProcessingDeps } from './flows/process-payment.ts';
export { applyRefundOutcome, recordRefundFailedLookup } from './flows/refund-outcome.ts';
export { exchangeRefund } from './flows/refund-send.ts';
export { lookUpStatus } from './flows/status-lookup.ts';
export { createAdapterClient } from './gateways/http-adapter-client.ts';
export type { LeaseTiming } from './flows/idempotency-keys.ts';
export { findKeyOwnerByDigest } from './flows/merchants.ts';
export { watchMerchantKeyChanges } from './flows/merchant-keys-watch.ts';
export { hasNoMerchants, sweepExpiredIdempotencyKeys } from './flows/start-up-upkeep.ts';
export { claimNotificationWork, recordNotificationAttempts } from './flows/notification-work.ts';
export type { NotificationNext, NotificationOutcome, NotificationWork } from './flows/notification-work.ts';
export { claimWork, finishWork, paymentOfWork, postponeWork, refundOfWork, settleFailedWork } from './flows/outbox-work.ts';
export { authorizationsPastTheirHold, paymentsPastTheirLifetime } from './flows/due-payments.ts';
export type { OutboxRow, OutboxTopic } from './store/outbox-repo.ts';
export type { RefundRow } from './store/refunds-repo.ts';
