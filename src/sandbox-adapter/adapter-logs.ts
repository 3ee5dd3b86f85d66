import type { AdapterLog } from '../contract/adapter-contract.ts';
import { redactForLog } from '../lib/redact.ts';

// Log entries travel back to the core and end up stored with the payment, so they are redacted here too.

export interface LogInput {
  kind: string;
  url: string;
  requestBody: unknown;
  response: unknown;
  durationMs: number;
}

export function adapterLogEntry(input: LogInput): Required<Pick<AdapterLog, 'kind' | 'request' | 'status' | 'response' | 'duration'>> {
  return {
    kind: input.kind,
    request: { url: input.url, body: redactForLog(input.requestBody ?? null) },
    status: 200,
    response: redactForLog(input.response),
    duration: Math.round(input.durationMs * 1000) / 1_000_000,
  };
}
