// @payrail/adapter-kit: everything an adapter for Payrail needs besides its provider's own API.

export {
  ADAPTER_METHODS,
  AdapterSettingsSchema,
  LOG_KINDS,
  MethodSettingsSchema,
  RESPONSE_TIMEOUT_S_DEFAULT,
  responseTimeoutMsOf,
  type AdapterMethod,
  type AdapterSettings,
  type LogKind,
  type MethodSettings,
} from './settings-schema.ts';
export {
  BankAccountSchema,
  CardReferenceSchema,
  ConfirmRequestSchema,
  CustomerSchema,
  DeclineRequestSchema,
  PayoutRequestSchema,
  PayRequestSchema,
  RefundRequestSchema,
  StatusRequestSchema,
  type ConfirmRequest,
  type DeclineRequest,
  type PayoutRequest,
  type PayRequest,
  type RefundRequest,
  type StatusRequest,
} from './request-schemas.ts';
export {
  ConfirmSecureCodeRequestSchema,
  NextPaymentStepRequestSchema,
  NextStepSchema,
  ResendOtpRequestSchema,
  SecureCodeRequestSchema,
  type ConfirmSecureCodeRequest,
  type NextPaymentStepRequest,
  type NextStep,
  type ResendOtpRequest,
  type SecureCodeRequest,
} from './step-schemas.ts';
export { REQUEST_SCHEMAS, type AdapterRequestOf, type AdapterRequests } from './request-schemas-by-method.ts';
export {
  ADAPTER_STATUSES,
  AdapterLogSchema,
  AdapterResponseSchema,
  AdapterStatusSchema,
  CallbackClaimsSchema,
  PROVIDER_TIMEOUT_CODE,
  REDIRECT_TYPES,
  RedirectRequestSchema,
  RequisitesSchema,
  SecureSchema,
  type AdapterAnswer,
  type AdapterLog,
  type AdapterResponse,
  type AdapterStatus,
  type CallbackClaims,
  type RedirectRequest,
  type Requisites,
  type Secure,
} from './response-schema.ts';
export {
  amountMinorField,
  currencyField,
  httpUrlField,
  merchantKeyField,
  panField,
  textField,
  tokenField,
  AMOUNT_MINOR_MAX,
  CURRENCY_PATTERN,
  HTTP_URL_PATTERN,
  KEY_LENGTH_MAX,
  PAN_PATTERN,
  TOKEN_LENGTH_MAX,
  URL_LENGTH_MAX,
} from './wire-fields.ts';
export { SIGNATURE_HEADER, signBody, signKeyObject, verifySignature, type SignKey } from './signature.ts';
export {
  CALLBACK_JWT_LIFETIME_S,
  CallbackCryptoError,
  callbackRequestOf,
  callbackSignatureDigest,
  decryptMerchantKey,
  encryptMerchantKey,
  signCallbackJwt,
  verifyCallbackJwt,
} from './callback-crypto.ts';
export { interactionLog, type InteractionInput } from './interaction-log.ts';
export { maskCardNumbers, maskPan, REDACTED, redactForLog } from './redact.ts';
export { mapStatus, type StatusTable } from './status-map.ts';
export { INTERNAL_ERROR_TEXT, INVALID_SIGNATURE_TEXT } from './http-errors.ts';
export { AssetError, decodeAssets, PROVIDER_TLS_FILES, providerTlsOf, type ProviderTls, type ProviderTlsFiles } from './assets.ts';
export {
  adapterHttpServer,
  adapterRoutes,
  ANSWER_MARGIN_MS,
  type AdapterHandler,
  type AdapterHandlers,
  type AdapterHttpServerOptions,
  type AdapterRequestContext,
  type AdapterRoutesOptions,
} from './http-server.ts';
export {
  CONFORMANCE_METHODS,
  ConformanceOptionsError,
  formatReport,
  runConformance,
  type CheckOutcome,
  type ConformanceCheck,
  type ConformanceMethod,
  type ConformanceOptions,
  type ConformanceReport,
} from './conformance/index.ts';
export {
  ADAPTER_REQUEST_QUEUE_DEFAULT,
  brokerAddressOf,
  serveOverRabbit,
  type BrokerAddress,
  type RabbitServer,
  type RabbitServerOptions,
} from './rabbit.ts';
