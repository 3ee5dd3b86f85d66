export type {
  AdapterResponse,
  AdapterStatus,
  ConfirmSecureCodeRequest,
  GatewaySettings,
  NextPaymentStepRequest,
  NextStepWire,
  RedirectRequest,
  ResendOtpRequest,
  SecureCodeRequestWire,
} from './contract/adapter-contract.ts';
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
export { deleteExpiredIdempotencyKeys } from './store/idempotency-repo.ts';
export { countMerchants, findKeyOwner } from './store/merchants-repo.ts';
export { claimDueNotifications, finishNotificationWork } from './store/notification-work-repo.ts';
export type { NotificationNext, NotificationOutcome, NotificationWork } from './store/notification-work-repo.ts';
export { claimDue, completeWork, findDueAuthorizationIds, findExpiredPaymentIds, findPaymentById, rescheduleWork } from './store/processing-repo.ts';
export type { OutboxRow, OutboxTopic } from './store/processing-repo.ts';
export { findRefundById } from './store/refunds-repo.ts';
export type { RefundRow } from './store/refunds-repo.ts';
