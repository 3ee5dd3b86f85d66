import { redactForLog } from './redact.ts';
import type { AdapterLog } from './response-schema.ts';

// spec 2.9: one log item per interaction with the provider: the request (url, body), the provider's HTTP status,
// its response, the kind of operation and the duration in seconds.

export interface InteractionInput {
  kind: string;
  url: string;
  body?: unknown; // the request body sent (string or object)
  status: number; // the provider's HTTP status (0 when it never answered)
  response?: unknown; // string or object
  startedAt: number; // performance.now() when the request was sent
  finishedAt?: number; // performance.now() when the answer was read; now when absent
  redact?: (value: unknown) => unknown; // default: redactForLog (card numbers masked, CVV and keys removed)
}

const MICROSECONDS_PER_SECOND = 1_000_000;

export function interactionLog(input: InteractionInput): AdapterLog {
  const redact = input.redact ?? redactForLog;
  const elapsedMs = Math.max(0, (input.finishedAt ?? performance.now()) - input.startedAt);
  return {
    kind: input.kind,
    request: { url: input.url, body: redact(input.body ?? null) },
    status: input.status,
    response: redact(input.response ?? null),
    duration: Math.round(elapsedMs * 1000) / MICROSECONDS_PER_SECOND,
  };
}
