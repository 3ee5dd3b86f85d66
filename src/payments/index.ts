import type { AdapterClient } from './gateways/http-adapter-client.ts';

// The payments module's part of the application context: the client its flows reach adapters through.
declare module '../app-context.ts' {
  interface AppContext {
    adapterClient: AdapterClient;
  }
}

export type { GatewaySettings } from './contract/adapter-contract.ts';
export { pendingOutcome } from './domain/adapter-outcome.ts';
export { eventRequest } from './domain/event-request.ts';
export { pruneOldEvents } from './flows/events-pruning.ts';
export { NOTIFICATION_ATTEMPTS_MAX, notificationDelayMs } from './domain/notification-schedule.ts';
export { interpretStatusAnswer } from './domain/status-answer.ts';
export { voidExpiredAuthorization } from './flows/authorization-void.ts';
export { heldBackByExchange } from './flows/exchange-gate.ts';
export { gatewayOfPayment } from './flows/gateways.ts';
export { endLifetime } from './flows/lifetime-end.ts';
export { createMerchant, getMerchant, updateMerchant } from './flows/merchants.ts';
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
export { watchTestClockAdvances } from './flows/test-clock-wake.ts';
export { foldDailyStatDeltas, readDailyStats, rebuildDailyStats, type DailyStatsQuery } from './flows/daily-stats.ts';
export type { DailyStats } from './domain/daily-stats.ts';
export type { OutboxRow, OutboxTopic } from './store/outbox-repo.ts';
export { outboxBacklog, type OutboxBacklog } from './flows/outbox-work.ts';
export { checkLedger } from './flows/ledger-check.ts';
export type { RefundRow } from './store/refunds-repo.ts';
export { approveMerchant, createSignedUpMerchant, issueProductionKey, setMerchantDefaults } from './flows/merchant-signup.ts';
export { rotateMerchantKey } from './flows/merchants.ts';
export { resendNotification } from './flows/notifications.ts';
export { listMerchantNotifications } from './flows/notification-list.ts';
export type { MerchantNotification } from './flows/notification-list.ts';
export { createPaymentOfRequest } from './flows/payment-creation.ts';
export type { CreatePaymentRequest } from './domain/payment-request.ts';
export { checkoutUrl } from './domain/public-urls.ts';
export { findPayments, walkPayments, type PaymentListQuery, type PaymentListResult } from './flows/find-payments.ts';
export { readPaymentSearch } from './domain/payment-search.ts';
export { FINAL_STATUSES, PAYMENT_STATUSES } from './domain/payment-status.ts';
export type { MerchantScope, PaymentRow } from './store/payments-repo.ts';
export { paymentTimeline, refundablePayment, type PaymentTimeline } from './flows/payment-timeline.ts';
export type { HistoryCause, StatusHistoryEntry } from './domain/status-history.ts';
export { refundPayment } from './flows/refunds.ts';
export { confirmPaymentDetail, declinePaymentDetail } from './flows/two-step.ts';
export { cancelPaymentDetail } from './flows/cancel-payment.ts';
// The dashboard's payouts, refunds and disputes pages (back-office): the same flows and rules as the merchant API.
export { createPayout } from './flows/payouts.ts';
export { createPayoutValidator } from './flows/payout-validation.ts';
export { findMerchantRefunds, type RefundListResult } from './flows/refund-list.ts';
export { getRefund } from './flows/refunds.ts';
export { findMerchantDisputes, type DisputeListResult } from './flows/dispute-list.ts';
export { getDisputeDetail, type DisputeDetail } from './flows/dispute-detail.ts';
export { readDisputeDocument, type DisputeDeps } from './flows/disputes.ts';
export { addDisputeEvidence } from './flows/dispute-evidence.ts';
export { evidenceQuotaOf } from './flows/dispute-evidence-quota.ts';
export { DISPUTE_MULTIPART_OPTIONS, DOCUMENT_COUNT_MAX, DOCUMENT_SIZE_MAX_BYTES, readDisputeForm } from './flows/dispute-upload.ts';
export { DISPUTE_STATUSES, disputeAcceptsEvidence, type DisputeStatus } from './domain/dispute-status.ts';
export { newFormKey, oncePerFormKey } from './flows/once-per-form.ts';
// The operator console's gateway pages (back-office): the settings form checked as the admin API checks it, and the
// adapter's conformance check.
export { GatewaySettingsSchema } from './contract/gateway-settings.ts';
export { readGatewaySettings, type GatewaySettingsProblem } from './flows/gateway-check-settings.ts';
export { checkGatewayAdapter, type AdapterCheckVerdict, type GatewayCheckReport } from './flows/gateway-check.ts';
// The operator console's Overview and its payment search across every merchant.
export { operationsOverview } from './flows/operations-overview.ts';
export type { OperationsOverview } from './domain/operations-overview.ts';
export { searchPaymentsAcrossMerchants, type OperatorPaymentSearchResult } from './flows/operator-payment-search.ts';
export type { OperatorPaymentSearchText } from './domain/operator-payment-search.ts';
export { paymentTokensOf } from './flows/payment-refs.ts';
// The operator console's merchants and gateways pages: the admin API's flows.
export { rejectMerchant } from './flows/merchant-signup.ts';
export { changeMerchantStatus } from './flows/merchants.ts';
export { setMerchantDisplayName } from './flows/merchant-display-name.ts';
export { findMerchantsPage, type MerchantSearchPage } from './flows/merchant-search.ts';
export type { MerchantSearchText } from './domain/merchant-search.ts';
export { REVIEW_NOTE_CHARS_MAX } from './domain/review-note.ts';
export type { MerchantWithKeys } from './store/merchants-repo.ts';
export { addGateway, changeGateway, listMerchantGateways, setGatewayStatus, type GatewayRow } from './flows/gateway-admin.ts';
export { checkPaymentStatusNow, type StatusCheckNow } from './flows/status-check-now.ts';
export { findOperatorDisputes } from './flows/dispute-list.ts';
export { actOnDispute } from './flows/dispute-resolution.ts';
export { listConflicts, resolveConflict } from './flows/conflict-resolution.ts';
export type { ConflictRecord } from './store/conflicts-repo.ts';
export { getGatewayWithSettings, type GatewayWithSettings } from './flows/gateway-view.ts';
export { ROUTING_CARD_BRAND_NAMES, ROUTING_REQUISITE_TYPE_NAMES, readGatewayRouting } from './flows/gateway-routing-input.ts';
export type { GatewayRoutingRules } from './domain/gateway-routing.ts';
export { DISPUTE_NOTE_LENGTH_MAX } from './domain/dispute-status.ts';
export { GATEWAY_ALIAS_CHARS_MAX, GATEWAY_ALIAS_RULE, readGatewayAlias } from './domain/gateway-alias.ts';
export { DISPLAY_NAME_CHARS_MAX } from './domain/display-name.ts';
export { importSettlementForm, RECONCILIATION_MULTIPART_OPTIONS } from './flows/reconciliation-upload.ts';
export { findReconciliationItems, findReconciliations, getReconciliation, reconciliationReportLines } from './flows/reconciliation-report.ts';
export type { ReconciliationOutcome, ReconciliationWithGateway, ReportItem } from './flows/reconciliation-report.ts';
