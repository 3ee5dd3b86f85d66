// @payrail/client: a typed client of the Payrail merchant API, on the platform's fetch alone.
export { Payrail, type PayrailOptions } from './client.ts';
export {
  PayrailAuthenticationError,
  PayrailConflictError,
  PayrailConnectionError,
  PayrailError,
  PayrailNotFoundError,
  PayrailPermissionError,
  PayrailRateLimitError,
  PayrailServerError,
  PayrailValidationError,
  type ErrorEnvelope,
  type ErrorItem,
} from './errors.ts';
export { verifyLegacySignature, verifyNotification, type NotificationHeaders, type VerifyNotificationOptions } from './verify.ts';
export type * from './types.ts';
export type { components, operations, paths } from '../generated/openapi.ts';
