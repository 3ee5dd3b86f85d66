import { objectsIn } from './json-path.ts';
import { DEMO_PLACEHOLDERS } from './openapi-demo-placeholders.ts';

// The example of each path and query parameter: what "Try it out" fills in. Path tokens name the demo seed's records
// (placeholders the demo server replaces, openapi-demo-values.ts); ids are those of a brand-new database (the demo
// merchant is #1). A query parameter that would narrow a list to nothing, or clash with another, gets none.

type Json = Record<string, unknown>;

const BY_NAME: Readonly<Record<string, unknown>> = {
  // A merchant key is never in the document: type your own (the demo's is printed once by `npm start`).
  merchant_private_key: 'sk_sandbox_Q7mXc2Lr9VwT4bNf8KsY1hGd6JpZ0aEu3oWi5RtB2xM',
  currency: 'USD',
  perPage: 10,
  page: 1,
};

const BY_OPERATION: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  listPayments: { operationType: 'pays' },
  getPayment: { token: DEMO_PLACEHOLDERS.approvedPaymentToken },
  confirmPayment: { token: DEMO_PLACEHOLDERS.confirmPaymentToken },
  declinePayment: { token: DEMO_PLACEHOLDERS.declinePaymentToken },
  cancelPayment: { token: DEMO_PLACEHOLDERS.cancelPaymentToken },
  sendSecureCode: { token: DEMO_PLACEHOLDERS.secureCodePaymentToken },
  resendSecureCode: { token: DEMO_PLACEHOLDERS.resendOtpPaymentToken },
  sendNextStep: { token: DEMO_PLACEHOLDERS.nextStepPaymentToken },
  listPaymentNotifications: { token: DEMO_PLACEHOLDERS.approvedPaymentToken },
  resendPaymentNotification: { token: DEMO_PLACEHOLDERS.approvedPaymentToken },
  getRefund: { token: DEMO_PLACEHOLDERS.refundToken },
  getEvent: { id: 'evt_5c0f3b9e6a8d4f21b7e0c4a1d9f2e837' },
  resendEvent: { id: 'evt_5c0f3b9e6a8d4f21b7e0c4a1d9f2e837' },
  streamEvents: { maxSeconds: 1 },
  getTestClock: { id: 'clock_000000000000000000000000' },
  advanceTestClock: { id: 'clock_000000000000000000000000' },
  listDisputes: { status: 'open' },
  getDispute: { token: DEMO_PLACEHOLDERS.disputeToken },
  downloadDisputeDocument: { token: DEMO_PLACEHOLDERS.disputeToken, id: 1 },
  coreListMoneyCharges: { role: 'payer', status: 'pending' },
  adminGetMerchant: { id: 1 },
  adminUpdateMerchant: { id: 1 },
  adminRotateMerchantKey: { id: 1, environment: 'production' },
  adminDisableMerchant: { id: 2 },
  adminEnableMerchant: { id: 2 },
  adminApproveMerchant: { id: 1 },
  adminRejectMerchant: { id: 1 },
  adminInviteDashboardMember: { id: 1 },
  adminCreateGateway: { id: 1 },
  adminListGateways: { id: 1 },
  adminUpdateGateway: { id: 1, gatewayId: 1 },
  adminDisableGateway: { id: 1, gatewayId: 1 },
  adminEnableGateway: { id: 1, gatewayId: 1 },
  adminGetCommissions: { id: 1 },
  adminSetCommissions: { id: 1 },
  adminListDisputes: { merchantId: 1, environment: 'sandbox', status: 'open' },
  adminGetDispute: { token: DEMO_PLACEHOLDERS.disputeToken },
  adminReviewDispute: { token: DEMO_PLACEHOLDERS.disputeToken },
  adminResolveDispute: { token: DEMO_PLACEHOLDERS.disputeToken },
  adminDownloadDisputeDocument: { token: DEMO_PLACEHOLDERS.disputeToken, id: 1 },
  adminListConflicts: { state: 'unresolved' },
  adminResolveConflict: { id: 1 },
  adminGetSettlementColumns: { id: 1 },
  adminSetSettlementColumns: { id: 1 },
  adminGetReconciliation: { token: 'rec_Q2x9vT4mK1pZ8rW3yB6nH0sd' },
  adminListReconciliationItems: { token: 'rec_Q2x9vT4mK1pZ8rW3yB6nH0sd' },
  adminReconciliationReportCsv: { token: 'rec_Q2x9vT4mK1pZ8rW3yB6nH0sd' },
  adminListUsers: { kind: 'person' },
  adminGetUser: { id: 1 },
  adminUpdateUser: { id: 1 },
  adminGetBusinessAccount: { id: 4 },
  adminAddBusinessMember: { id: 4 },
  adminRemoveBusinessMember: { id: 4, user_id: 3 },
  adminRevokeAppToken: { id: 1 },
  adminListUserMessages: { limit: 10, user_id: 1 },
  adminListBankAccounts: { status: 'pending' },
  adminReviewBankAccount: { id: 2, action: 'approve' },
  coreShowCardDataLink: { id: 1 },
  coreSetCardPinLink: { id: 1 },
  receiveProviderCallback: { token: DEMO_PLACEHOLDERS.approvedPaymentToken },
};

export function addParameterExamples(operation: Json): void {
  const parameters = objectsIn(operation['parameters']);
  const own = BY_OPERATION[String(operation['operationId'])] ?? {};
  for (const parameter of parameters) {
    if (parameter['example'] !== undefined || parameter['examples'] !== undefined) continue;
    const name = String(parameter['name']);
    const example = name in own ? own[name] : BY_NAME[name];
    if (example !== undefined) parameter['example'] = example;
  }
}
