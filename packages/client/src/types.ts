import type { operations } from '../generated/openapi.ts';

// The request and answer types of the merchant operations, read from the generated document types
// (generated/openapi.ts): when the API changes, regenerating changes these.

type JsonContent<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type RequestOf<Name extends keyof operations> = JsonContent<NonNullable<operations[Name]['requestBody']>>;
type SuccessOf<Responses> = Responses extends { 200: infer Success }
  ? Success
  : Responses extends { 201: infer Success }
    ? Success
    : Responses extends { 202: infer Success }
      ? Success
      : never;
type AnswerOf<Name extends keyof operations> = JsonContent<SuccessOf<operations[Name]['responses']>>;
type QueryOf<Name extends keyof operations> = NonNullable<operations[Name]['parameters']['query']>;

// spec 2.1: variant A (camelCase) or B (snake_case); either with bank_account is variant C.
export type PaymentCreateParams = RequestOf<'createPayment'>;
export type CreatedPayment = AnswerOf<'createPayment'>;
export type PaymentEnvelope = AnswerOf<'getPayment'>;
export type Payment = PaymentEnvelope['payment'];
export type PaymentListPage = AnswerOf<'listPayments'>;
export type PaymentListItem = PaymentListPage['payments'][number];
// Where the list starts is the iterator's business (it follows nextCursor); page, perPage and operationType have defaults.
export type PaymentListFilters = Partial<Omit<QueryOf<'listPayments'>, 'page' | 'cursor'>>;
export type PaymentConfirmParams = RequestOf<'confirmPayment'>;
export type SecureCodeParams = RequestOf<'sendSecureCode'>;
export type NextStepParams = RequestOf<'sendNextStep'>;
export type NotificationAttempts = AnswerOf<'listPaymentNotifications'>;
export type NotificationResent = AnswerOf<'resendPaymentNotification'>;

export type RefundCreateParams = RequestOf<'createRefund'>;
export type CreatedRefund = AnswerOf<'createRefund'>;
export type RefundEnvelope = AnswerOf<'getRefund'>;

export type PayoutCreateParams = RequestOf<'createPayout'>;
export type CreatedPayout = AnswerOf<'createPayout'>;

export type DisputeEnvelope = AnswerOf<'getDispute'>;
export type DisputeListPage = AnswerOf<'listDisputes'>;
export type DisputeListItem = DisputeListPage['disputes'][number];
export type DisputeListFilters = Partial<Omit<QueryOf<'listDisputes'>, 'cursor'>>;
type DisputeForm = NonNullable<operations['createDispute']['requestBody']>['content']['multipart/form-data'];
export interface DisputeDocument {
  fileName: string;
  content: Blob | Uint8Array<ArrayBuffer>;
  mediaType?: string; // Payrail recognises the type by the content; this only labels the upload
}
export type DisputeCreateParams = Omit<DisputeForm, 'amount' | 'document[]'> & { amount: number | string; documents?: readonly DisputeDocument[] };

export type BalanceQuery = QueryOf<'getBalance'>;
export type Balance = AnswerOf<'getBalance'>;

export type EventListPage = AnswerOf<'listEvents'>;
export type EventListItem = EventListPage['events'][number];
export type EventListFilters = Partial<Omit<QueryOf<'listEvents'>, 'cursor'>>;
export type EventEnvelope = AnswerOf<'getEvent'>;
export type EventResent = AnswerOf<'resendEvent'>;

export type TestClockCreateParams = RequestOf<'createTestClock'>;
export type TestClockAdvanceParams = RequestOf<'advanceTestClock'>;
export type TestClockEnvelope = AnswerOf<'getTestClock'>;
export type TestClockList = AnswerOf<'listTestClocks'>;

export interface RequestOptions {
  idempotencyKey?: string; // a POST sends a random one unless given; its retries reuse it
}
