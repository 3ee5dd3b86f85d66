// Every failure of a call is a PayrailError: the HTTP status, the first error's code and message, the request id
// Payrail answered with (x-request-id, for support) and the whole error envelope. One subclass per kind of failure,
// so a caller catches what it can handle: `catch (error) { if (error instanceof PayrailNotFoundError) … }`.

export interface ErrorItem {
  code: string;
  message: string;
  field?: string;
}

// Payrail's error envelope (merchant API). Some answers add fields of their own (413 evidence_quota_exceeded: quotaLeftBytes).
export interface ErrorEnvelope {
  success: false;
  result?: number;
  status?: number;
  errors: ErrorItem[];
  [extra: string]: unknown;
}

export interface PayrailErrorDetails {
  status: number | null;
  code: string;
  message: string;
  requestId: string | null;
  envelope: ErrorEnvelope | null;
  cause?: unknown;
}

export class PayrailError extends Error {
  readonly status: number | null; // null when no answer came (PayrailConnectionError)
  readonly code: string;
  readonly requestId: string | null;
  readonly envelope: ErrorEnvelope | null;

  constructor(details: PayrailErrorDetails) {
    super(details.message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.status = details.status;
    this.code = details.code;
    this.requestId = details.requestId;
    this.envelope = details.envelope;
  }
}

export class PayrailAuthenticationError extends PayrailError {} // 401: no key, an unknown or revoked key
export class PayrailPermissionError extends PayrailError {} // 403
export class PayrailNotFoundError extends PayrailError {} // 404
export class PayrailConflictError extends PayrailError {} // 409: invalid_state, idempotency_key_in_use, …
export class PayrailValidationError extends PayrailError {} // 400 and 422: the request breaks a rule
export class PayrailRateLimitError extends PayrailError {
  readonly retryAfterMs: number | null;

  constructor(details: PayrailErrorDetails & { retryAfterMs: number | null }) {
    super(details);
    this.retryAfterMs = details.retryAfterMs;
  }
}
export class PayrailServerError extends PayrailError {} // 5xx
export class PayrailConnectionError extends PayrailError {} // no answer: the network failed or the timeout passed

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  return (
    isObject(value) &&
    value['success'] === false &&
    Array.isArray(value['errors']) &&
    value['errors'].every((item) => isObject(item) && typeof item['code'] === 'string' && typeof item['message'] === 'string')
  );
}

// The error an HTTP answer of status ≥ 400 stands for; a body that is not an envelope (a proxy's HTML page) gives
// the code http_<status>.
export function errorOfAnswer(status: number, body: unknown, requestId: string | null, retryAfterMs: number | null): PayrailError {
  const envelope = isErrorEnvelope(body) ? body : null;
  const first = envelope?.errors[0];
  const details: PayrailErrorDetails = {
    status,
    code: first?.code ?? `http_${status}`,
    message: first?.message ?? `Payrail answered HTTP ${status}`,
    requestId,
    envelope,
  };
  if (status === 401) return new PayrailAuthenticationError(details);
  if (status === 403) return new PayrailPermissionError(details);
  if (status === 404) return new PayrailNotFoundError(details);
  if (status === 409) return new PayrailConflictError(details);
  if (status === 400 || status === 422) return new PayrailValidationError(details);
  if (status === 429) return new PayrailRateLimitError({ ...details, retryAfterMs });
  if (status >= 500) return new PayrailServerError(details);
  return new PayrailError(details);
}
