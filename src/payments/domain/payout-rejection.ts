// spec 4, the payout rejection rule: what the adapter's answer to /payout makes of a payout.
//
//   status declined, or result false           → declined, always (the reservation is released)
//   a request error: timeout, network error,   → declined when the gateway sets decline_payout_on_request_error,
//     HTTP status other than 200, a body that     otherwise processing: the provider may have the payout, so its
//     is not JSON, result false with code 408     money stays held until a status check (or callback) settles it
//     (spec 7.5: the provider timed out)
//   approved (with result true)                → approved (the reservation is sent)
//   pending, or an answer we do not understand → pending, settled by status checks or a callback
//
// A payout whose request failed may still have reached the provider; only the gateway's operator can say that
// their provider never executes a payout it did not answer, which is what decline_payout_on_request_error means.

import type { AdapterAnswer, AdapterOutcome } from './adapter-outcome.ts';
import { decideReportedStatus, decideTransition, NO_FINAL_CHANGE, type PaymentStatus, type PaymentTransition } from './payment-status.ts';
import { isJsonObject } from '../../platform/lib/type-guards.ts';

type PayoutAnswerStatus = 'approved' | 'declined' | 'pending' | 'processing';

export interface PayoutDecision {
  status: PayoutAnswerStatus;
  declineReason: string | null; // set when declined
  requestError: string | null; // why the request failed, when it did (declined or processing)
}

export interface PayoutRuleSettings {
  declinePayoutOnRequestError: boolean; // the gateway's decline_payout_on_request_error
}

const PROVIDER_TIMEOUT_CODE = 408; // spec 7.5
const REQUEST_ERROR_PREFIX = 'payout request failed: ';

export function decidePayoutOutcome(answer: AdapterAnswer, outcome: AdapterOutcome, settings: PayoutRuleSettings): PayoutDecision {
  const requestError = requestErrorOf(answer);
  if (requestError !== null) {
    if (settings.declinePayoutOnRequestError) return { status: 'declined', declineReason: REQUEST_ERROR_PREFIX + requestError, requestError };
    return { status: 'processing', declineReason: null, requestError };
  }
  if (outcome.status === 'declined') return { status: 'declined', declineReason: outcome.declineReason, requestError: null };
  if (outcome.status === 'approved') return { status: 'approved', declineReason: null, requestError: null };
  return { status: 'pending', declineReason: null, requestError: null };
}

// The request did not get an answer the provider stands behind: whether the payout was executed is unknown.
function requestErrorOf(answer: AdapterAnswer): string | null {
  switch (answer.kind) {
    case 'timeout':
      return 'the adapter did not answer before the response timeout';
    case 'network_error':
      return `the adapter could not be reached (${answer.message})`;
    case 'http_error':
      return `the adapter answered HTTP ${answer.statusCode}`;
    case 'invalid_json':
      return 'the adapter answered with a body that is not valid JSON';
    case 'response': {
      const body = answer.body;
      if (!isJsonObject(body)) return 'the adapter answered with a body that is not a JSON object';
      const { result, code } = body;
      if (result === false && (code === PROVIDER_TIMEOUT_CODE || code === String(PROVIDER_TIMEOUT_CODE))) return 'the provider timed out (code 408)';
      return null;
    }
  }
}

// The move a decision makes from where the payout stands. From init (the answer to its own request) every decision
// moves it; a payout a status check or a callback moved first takes the answer like any report, and a request
// error says nothing about it. allowFinalChange: the gateway's enable_change_final_status.
export function decidePayoutTransition(current: PaymentStatus, decision: PayoutDecision, allowFinalChange: boolean): PaymentTransition | null {
  if (current === 'init') return decideTransition('init', decision.status, NO_FINAL_CHANGE);
  if (decision.status === 'processing' || decision.requestError !== null) return null;
  return decideReportedStatus(current, decision.status, { allowFinalChange });
}

// A status check's answer about a payout that never got an answer of its own (init or processing): a failed /status
// (the outcome is pending only because nothing could be read) leaves it where it is.
export function statusAnswerSaysNothing(current: PaymentStatus, outcome: Pick<AdapterOutcome, 'status' | 'systemError'>): boolean {
  return (current === 'init' || current === 'processing') && outcome.status === 'pending' && outcome.systemError !== null;
}
