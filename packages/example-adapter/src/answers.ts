import {
  PROVIDER_TIMEOUT_CODE,
  responseTimeoutMsOf,
  type AdapterAnswer,
  type AdapterLog,
  type AdapterMethod,
  type AdapterSettings,
} from '@payrail/adapter-kit';
import type { AcmeCallResult } from './acme-client.ts';

// How the outcome of a call to Acme becomes an adapter answer (spec 2.9, 7.4–7.8):
//   ok       the mapped resource (approved, declined with a reason, or pending)
//   refused  result=false with Acme's error: nothing happened at Acme, Payrail declines
//   unknown  result=false with code 408: the operation may have happened, so Payrail keeps the payment pending
//            and the final status comes by webhook (callback) or /status

// The adapter stops waiting for Acme this long before Payrail's own response_timeout (the kit answers 408 at
// ANSWER_MARGIN_MS before it): so the answer carries the log of the call that timed out.
const PROVIDER_MARGIN_MS = 1000;
const PROVIDER_TIMEOUT_MS_MIN = 100;

export function providerTimeoutMsOf(settings: AdapterSettings, method: AdapterMethod): number {
  return Math.max(PROVIDER_TIMEOUT_MS_MIN, responseTimeoutMsOf(settings, method) - PROVIDER_MARGIN_MS);
}

export function answerOf<Resource>(
  result: AcmeCallResult<Resource>,
  mapped: (resource: Resource) => AdapterAnswer,
  earlierLogs: AdapterLog[] = [],
): AdapterAnswer {
  const logs = [...earlierLogs, result.log];
  switch (result.kind) {
    case 'ok':
      return { ...mapped(result.resource), logs };
    case 'refused':
      return { result: false, error: refusalText(result.statusCode, result.error), logs };
    case 'unknown':
      return outcomeUnknown(result.reason, logs);
  }
}

export function outcomeUnknown(reason: string, logs: AdapterLog[]): AdapterAnswer {
  return { result: false, code: PROVIDER_TIMEOUT_CODE, error: reason, logs };
}

// A call that never reached Acme: the settings or the request cannot be mapped.
export function notSent(problem: string): AdapterAnswer {
  return { result: false, error: problem };
}

function refusalText(statusCode: number, error: { code: string; message: string } | null): string {
  return error === null
    ? `Acme Pay refused the request (HTTP ${statusCode})`
    : `Acme Pay refused the request (HTTP ${statusCode}, ${error.code}): ${error.message}`;
}
