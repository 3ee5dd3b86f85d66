// What each error code answers with, for the OpenAPI document's error examples: its HTTP status and a message the
// service gives for it (src/platform/lib/errors.ts, core-errors.ts and the flows that throw them). A code a route names
// that is missing here takes the status the route's description gives it, or none.

export interface KnownErrorCode {
  status: number;
  message: string;
}

const known = (status: number, message: string): KnownErrorCode => ({ status, message });

export const KNOWN_ERROR_CODES: Readonly<Record<string, KnownErrorCode>> = Object.freeze({
  bad_request: known(400, 'the request could not be read'),
  invalid_json: known(400, 'request body is not valid JSON'),
  invalid_content_length: known(400, 'request body is shorter than Content-Length'),
  invalid_url: known(400, 'the URL does not decode'),
  invalid_multipart: known(400, 'the body is not a readable multipart/form-data form'),
  invalid_idempotency_key: known(400, 'Idempotency-Key must be 1..255 visible ASCII characters'),
  unauthorized: known(401, 'Authorization: Bearer <key> is required'),
  admin_key_disabled: known(401, 'the admin key is turned off (PAYRAIL_ADMIN_KEY is unset): use the operator console at /ops'),
  operator_exists: known(409, 'an operator with the e-mail address ops.lead@payrail.example exists'),
  session_required: known(401, 'header session-token is required'),
  session_invalid: known(401, 'the session is unknown'),
  session_expired: known(401, 'the session has expired'),
  session_revoked: known(401, 'the session was signed out'),
  pre_session_used: known(401, 'this pre-session was confirmed already'),
  too_many_wrong_codes: known(401, 'too many wrong codes: sign in again'),
  confirmation_code_expired: known(401, 'the code has expired: sign in again'),
  confirmation_code_invalid: known(401, 'the code is not right'),
  sign_in_cancelled: known(401, 'the sign-in was called off'),
  app_token_required: known(401, 'header app-token is required'),
  app_token_invalid: known(401, 'the app token is unknown'),
  app_token_revoked: known(401, 'the app token was revoked'),
  merchant_key_invalid: known(401, 'merchant_private_key is not a key of an active merchant'),
  merchant_disabled: known(403, 'this merchant is disabled'),
  profile_disabled: known(403, 'this profile is disabled'),
  forbidden: known(403, 'you may not act for this account'),
  https_required: known(403, 'Payrail accepts HTTPS only'),
  not_found: known(404, 'no such record'),
  card_not_found: known(404, 'no card of this merchant has this id'),
  profile_not_found: known(404, 'no active profile has this profile_id'),
  invalid_state: known(409, 'payment is approved'),
  payment_action_in_progress: known(409, 'another action of this payment is with the adapter; try again once it is answered'),
  idempotency_key_in_use: known(409, 'a request with this Idempotency-Key is still being processed'),
  alias_taken: known(409, 'this merchant already has a sandbox gateway named sandbox'),
  already_exists: known(409, 'another profile has this e-mail address or phone number'),
  card_not_active: known(409, 'the card is not active'),
  charge_not_pending: known(409, 'this money charge is no longer pending'),
  no_callback_url: known(409, 'this payment has no callbackUrl'),
  secure_code_attempts_exhausted: known(409, 'no more codes are forwarded for this payment'),
  next_step_submissions_exhausted: known(409, 'no more submissions are forwarded for this payment'),
  otp_resend_not_allowed: known(409, 'the gateway does not send the code again'),
  payload_too_large: known(413, 'request body is larger than 1048576 bytes'),
  evidence_quota_exceeded: known(413, "the merchant's evidence storage is full"),
  unsupported_media_type: known(415, 'Content-Type must be application/json'),
  invalid_field: known(422, 'amount must be a positive integer'),
  unknown_field: known(422, 'unknown field'),
  missing_field: known(422, 'this field is required'),
  mixed_spelling: known(422, 'orderNumber and order_number differ'),
  page_too_deep: known(422, 'page is too deep: follow nextCursor instead'),
  invalid_cursor: known(422, 'cursor is not a nextCursor this API gave'),
  idempotency_key_reused: known(422, 'this Idempotency-Key was used with a different request body'),
  insufficient_balance: known(422, 'the available balance does not cover the amount and its commission'),
  insufficient_funds: known(422, 'the wallet holds less than the amount'),
  no_gateway: known(422, 'no enabled gateway of this merchant takes this currency and amount'),
  invalid_amount: known(422, 'amount is above the authorized amount'),
  adapter_declined: known(422, 'the adapter refused the capture: do not honor; the payment stays authorized'),
  refund_exceeds_captured: known(422, 'the refund is more than the captured amount less earlier refunds'),
  refund_count_exceeded: known(422, 'a payment takes at most 100 refunds, declined ones included'),
  amount_exceeds_disputable: known(422, 'amount is more than the payment has left to dispute'),
  invalid_callback: known(422, 'the callback does not match the payment'),
  rate_limited: known(429, 'too many requests; retry after the Retry-After seconds'),
  too_many_sign_in_attempts: known(429, 'too many sign-in attempts for this login; retry later'),
  otp_resend_too_soon: known(429, 'the code was sent moments ago; wait before asking again'),
  otp_resend_limit: known(429, 'the code was sent again as often as allowed'),
  adapter_unavailable: known(502, 'the adapter did not answer; the payment is as it was'),
  issuer_error: known(502, 'the card issuer did not answer; no card was issued'),
});

// The code an error of a status most often carries, when a route names none for it.
export const USUAL_CODE_OF_STATUS: Readonly<Record<number, string>> = Object.freeze({
  400: 'invalid_json',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'invalid_state',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'invalid_field',
  429: 'rate_limited',
  502: 'adapter_unavailable',
  504: 'adapter_unavailable',
});

// The core banking API's usual codes differ for a missing credential.
export const USUAL_CORE_CODE_OF_STATUS: Readonly<Record<number, string>> = Object.freeze({ 401: 'session_invalid', 403: 'profile_disabled' });
