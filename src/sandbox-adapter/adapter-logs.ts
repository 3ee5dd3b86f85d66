import type { AdapterLog } from '../contract/adapter-contract.ts';
import { redactForLog, type SensitiveCardData } from '../lib/redact.ts';

// Log entries travel back to the core and end up stored with the payment, so they are redacted here too,
// with the card of the request masked wherever it shows up.

export interface LogInput {
  kind: string;
  url: string;
  requestBody: unknown;
  response: unknown;
  durationMs: number;
}

export function adapterLogEntry(input: LogInput): Required<Pick<AdapterLog, 'kind' | 'request' | 'status' | 'response' | 'duration'>> {
  const card = cardOf(input.requestBody);
  return {
    kind: input.kind,
    request: { url: input.url, body: redactForLog(input.requestBody ?? null, card) },
    status: 200,
    response: redactForLog(input.response, card),
    duration: Math.round(input.durationMs * 1000) / 1_000_000,
  };
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
