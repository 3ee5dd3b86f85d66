import { interactionLog, type AdapterLog } from '@payrail/adapter-kit';
import { redactForLog, type SensitiveCardData } from '../platform/lib/redact.ts';

// Log items travel back to the core and end up stored with the payment, so they are redacted with Payrail's own
// redaction (lib/redact.ts, stricter than the kit's default), the card of the request masked wherever it shows up.
// The items themselves are the kit's (spec 2.9: kind, request, status, response, duration in seconds).

export function redactSandboxLog(value: unknown, requestBody: unknown): unknown {
  return redactForLog(value ?? null, cardOf(requestBody));
}

export interface LogInput {
  kind: string;
  url: string;
  requestBody: unknown;
  response: unknown;
  durationMs: number;
}

// One item for an interaction that happened inside the sandbox (a provider callback's event).
export function adapterLogEntry(input: LogInput): AdapterLog {
  const finishedAt = performance.now();
  return interactionLog({
    kind: input.kind,
    url: input.url,
    body: input.requestBody,
    status: 200,
    response: input.response,
    startedAt: finishedAt - input.durationMs,
    finishedAt,
    redact: (value) => redactSandboxLog(value, input.requestBody),
  });
}

// spec 2.8: the card travels as params.pan and params.cvv.
function cardOf(requestBody: unknown): SensitiveCardData | null {
  const params = (requestBody as { params?: { pan?: unknown; cvv?: unknown } } | null)?.params;
  if (params === null || typeof params !== 'object') return null;
  return {
    panDigits: typeof params.pan === 'string' ? params.pan.replace(/[\s.+-]+/g, '') : null,
    cvv: typeof params.cvv === 'string' ? params.cvv : null,
  };
}
