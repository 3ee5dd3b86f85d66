// What an answer to a status lookup (/status) means. It is read apart from an operation's answer (/pay, /refund, …,
// interpretAdapterAnswer, spec 7.6): spec 4's /status row makes `result` "true for a successful status request", and
// spec 7.4 keeps a transaction in processing on a system error. So:
//
//   result true, status declined                → a decline (spec 7.8: a business decline)
//   result true, status approved or pending     → that status, read like any report
//   result false (any code), an `error` key     → a failed lookup: it says nothing about the payment, which stays
//     beside a status other than declined,         where it is while the schedule goes on
//     result absent, a timeout, a network error,
//     an HTTP status other than 200, a body that
//     is not a JSON object
import { interpretAdapterAnswer, pendingOutcome, type AdapterAnswer, type AdapterOutcome } from './adapter-outcome.ts';
import { isJsonObject } from '../../platform/lib/type-guards.ts';

export type StatusReading = { kind: 'report'; outcome: AdapterOutcome } | { kind: 'failed_lookup'; reason: string; outcome: AdapterOutcome }; // outcome: pending, with the adapter's logs only

const ERROR_TEXT_SHOWN_MAX = 200;

export function interpretStatusAnswer(answer: AdapterAnswer): StatusReading {
  const reason = failedLookupReason(answer);
  if (reason === null) return { kind: 'report', outcome: interpretAdapterAnswer(answer) };
  return { kind: 'failed_lookup', reason, outcome: { ...pendingOutcome(reason), logs: interpretAdapterAnswer(answer).logs } };
}

function failedLookupReason(answer: AdapterAnswer): string | null {
  switch (answer.kind) {
    case 'timeout':
      return 'the adapter did not answer the status lookup before the response timeout';
    case 'network_error':
      return `the adapter could not be reached for the status lookup (${answer.message})`;
    case 'http_error':
      return `the adapter answered the status lookup with HTTP ${answer.statusCode}`;
    case 'invalid_json':
      return 'the adapter answered the status lookup with a body that is not valid JSON';
    case 'response':
      return failedBodyReason(answer.body);
  }
}

function failedBodyReason(body: unknown): string | null {
  if (!isJsonObject(body)) return 'the adapter answered the status lookup with a body that is not a JSON object';
  const fields = body;
  if (fields['result'] !== true) return `the adapter answered the status lookup with result ${describe(fields['result'])}${errorText(fields)}`;
  if (fields['status'] === 'declined') return null;
  if (Object.hasOwn(fields, 'error')) return `the adapter answered the status lookup with an error${errorText(fields)}`;
  return null;
}

function errorText(fields: Record<string, unknown>): string {
  const error = fields['error'];
  return typeof error === 'string' && error.trim() !== '' ? `: ${error.slice(0, ERROR_TEXT_SHOWN_MAX)}` : '';
}

function describe(value: unknown): string {
  if (value === undefined) return '(missing)';
  return JSON.stringify(value)?.slice(0, 50) ?? typeof value;
}
